/**
 * The protobuf messages kube-sim decodes from kubectl (see protobuf-body.ts), as a .proto schema for
 * protobufjs. Field numbers are the upstream ones (k8s.io/api and k8s.io/apimachinery
 * `generated.proto`; they never change between releases); names are the JSON names. Only what
 * kubectl's typed commands send is declared: `kubectl create namespace | configmap | secret |
 * serviceaccount | service | deployment | job | cronjob | role | clusterrole | rolebinding |
 * clusterrolebinding | poddisruptionbudget | quota | token`, `kubectl drain` (Eviction,
 * DeleteOptions) and `kubectl auth can-i`. Status parts are declared as `bytes` (skipped: the
 * server resets status on create). A field missing here makes the body 415 (checked in
 * protobuf-body.ts), so nothing is dropped silently.
 */
export const KUBE_PROTO = `
syntax = "proto2";
package k8s;

// runtime.Unknown, the envelope after the "k8s\\0" magic, and runtime.TypeMeta
message Unknown { optional TypeMeta typeMeta = 1; optional bytes raw = 2; optional string contentEncoding = 3; optional string contentType = 4; }
message TypeMeta { optional string apiVersion = 1; optional string kind = 2; }

// k8s.io/apimachinery: meta/v1, intstr, resource
message Time { optional int64 seconds = 1; optional int32 nanos = 2; }
message IntOrString { optional int64 type = 1; optional int32 intVal = 2; optional string strVal = 3; }
message Quantity { optional string string = 1; }
message OwnerReference { optional string kind = 1; optional string name = 3; optional string uid = 4; optional string apiVersion = 5; optional bool controller = 6; optional bool blockOwnerDeletion = 7; }
message ObjectMeta {
  optional string name = 1; optional string generateName = 2; optional string namespace = 3; optional string selfLink = 4;
  optional string uid = 5; optional string resourceVersion = 6; optional int64 generation = 7;
  optional Time creationTimestamp = 8; optional Time deletionTimestamp = 9; optional int64 deletionGracePeriodSeconds = 10;
  map<string, string> labels = 11; map<string, string> annotations = 12;
  repeated OwnerReference ownerReferences = 13; repeated string finalizers = 14;
}
message LabelSelectorRequirement { optional string key = 1; optional string operator = 2; repeated string values = 3; }
message LabelSelector { map<string, string> matchLabels = 1; repeated LabelSelectorRequirement matchExpressions = 2; }
message Preconditions { optional string uid = 1; optional string resourceVersion = 2; }
message DeleteOptions { optional int64 gracePeriodSeconds = 1; optional Preconditions preconditions = 2; optional bool orphanDependents = 3; optional string propagationPolicy = 4; repeated string dryRun = 5; optional bool ignoreStoreReadErrorWithClusterBreakingPotential = 6; }

// core/v1
message Namespace { optional ObjectMeta metadata = 1; optional NamespaceSpec spec = 2; optional bytes status = 3; }
message NamespaceSpec { repeated string finalizers = 1; }
message ConfigMap { optional ObjectMeta metadata = 1; map<string, string> data = 2; map<string, bytes> binaryData = 3; optional bool immutable = 4; }
message Secret { optional ObjectMeta metadata = 1; map<string, bytes> data = 2; optional string type = 3; map<string, string> stringData = 4; optional bool immutable = 5; }
message ObjectReference { optional string kind = 1; optional string namespace = 2; optional string name = 3; optional string uid = 4; optional string apiVersion = 5; optional string resourceVersion = 6; optional string fieldPath = 7; }
message LocalObjectReference { optional string name = 1; }
message ServiceAccount { optional ObjectMeta metadata = 1; repeated ObjectReference secrets = 2; repeated LocalObjectReference imagePullSecrets = 3; optional bool automountServiceAccountToken = 4; }
message ServicePort { optional string name = 1; optional string protocol = 2; optional int32 port = 3; optional IntOrString targetPort = 4; optional int32 nodePort = 5; optional string appProtocol = 6; }
message ServiceSpec {
  repeated ServicePort ports = 1; map<string, string> selector = 2; optional string clusterIP = 3; optional string type = 4;
  repeated string externalIPs = 5; optional string sessionAffinity = 7; optional string loadBalancerIP = 8;
  repeated string loadBalancerSourceRanges = 9; optional string externalName = 10; optional string externalTrafficPolicy = 11;
  optional int32 healthCheckNodePort = 12; optional bool publishNotReadyAddresses = 13; optional string ipFamilyPolicy = 17;
  repeated string clusterIPs = 18; repeated string ipFamilies = 19; optional bool allocateLoadBalancerNodePorts = 20;
  optional string loadBalancerClass = 21; optional string internalTrafficPolicy = 22; optional string trafficDistribution = 23;
}
message Service { optional ObjectMeta metadata = 1; optional ServiceSpec spec = 2; optional bytes status = 3; }
message ResourceQuotaSpec { map<string, Quantity> hard = 1; repeated string scopes = 2; optional ScopeSelector scopeSelector = 3; }
message ScopeSelector { repeated ScopedResourceSelectorRequirement matchExpressions = 1; }
message ScopedResourceSelectorRequirement { optional string scopeName = 1; optional string operator = 2; repeated string values = 3; }
message ResourceQuota { optional ObjectMeta metadata = 1; optional ResourceQuotaSpec spec = 2; optional bytes status = 3; }
message ContainerPort { optional string name = 1; optional int32 hostPort = 2; optional int32 containerPort = 3; optional string protocol = 4; optional string hostIP = 5; }
message EnvVar { optional string name = 1; optional string value = 2; }
message ResourceRequirements { map<string, Quantity> limits = 1; map<string, Quantity> requests = 2; }
message ContainerResizePolicy { optional string resourceName = 1; optional string restartPolicy = 2; }
message Container {
  optional string name = 1; optional string image = 2; repeated string command = 3; repeated string args = 4; optional string workingDir = 5;
  repeated ContainerPort ports = 6; repeated EnvVar env = 7; optional ResourceRequirements resources = 8;
  optional string terminationMessagePath = 13; optional string imagePullPolicy = 14; optional bool stdin = 16; optional bool stdinOnce = 17;
  optional bool tty = 18; optional string terminationMessagePolicy = 20; repeated ContainerResizePolicy resizePolicy = 23; optional string restartPolicy = 24;
}
message Toleration { optional string key = 1; optional string operator = 2; optional string value = 3; optional string effect = 4; optional int64 tolerationSeconds = 5; }
message PodSpec {
  repeated Container containers = 2; optional string restartPolicy = 3; optional int64 terminationGracePeriodSeconds = 4;
  optional int64 activeDeadlineSeconds = 5; optional string dnsPolicy = 6; map<string, string> nodeSelector = 7;
  optional string serviceAccountName = 8; optional string serviceAccount = 9; optional string nodeName = 10;
  optional bool hostNetwork = 11; optional bool hostPID = 12; optional bool hostIPC = 13; repeated LocalObjectReference imagePullSecrets = 15;
  optional string hostname = 16; optional string subdomain = 17; optional string schedulerName = 19; repeated Container initContainers = 20;
  optional bool automountServiceAccountToken = 21; repeated Toleration tolerations = 22; optional string priorityClassName = 24;
  optional int32 priority = 25; optional bool shareProcessNamespace = 27; optional string runtimeClassName = 29;
  optional bool enableServiceLinks = 30; optional string preemptionPolicy = 31; optional bool setHostnameAsFQDN = 35; optional bool hostUsers = 37;
  optional string hostnameOverride = 41;
}
message PodTemplateSpec { optional ObjectMeta metadata = 1; optional PodSpec spec = 2; }
message Pod { optional ObjectMeta metadata = 1; optional PodSpec spec = 2; optional bytes status = 3; }
message Binding { optional ObjectMeta metadata = 1; optional ObjectReference target = 2; }

// apps/v1
message RollingUpdateDeployment { optional IntOrString maxUnavailable = 1; optional IntOrString maxSurge = 2; }
message DeploymentStrategy { optional string type = 1; optional RollingUpdateDeployment rollingUpdate = 2; }
message DeploymentSpec {
  optional int32 replicas = 1; optional LabelSelector selector = 2; optional PodTemplateSpec template = 3; optional DeploymentStrategy strategy = 4;
  optional int32 minReadySeconds = 5; optional int32 revisionHistoryLimit = 6; optional bool paused = 7; optional int32 progressDeadlineSeconds = 9;
}
message Deployment { optional ObjectMeta metadata = 1; optional DeploymentSpec spec = 2; optional bytes status = 3; }

// batch/v1
message JobSpec {
  optional int32 parallelism = 1; optional int32 completions = 2; optional int64 activeDeadlineSeconds = 3; optional LabelSelector selector = 4;
  optional bool manualSelector = 5; optional PodTemplateSpec template = 6; optional int32 backoffLimit = 7; optional int32 ttlSecondsAfterFinished = 8;
  optional string completionMode = 9; optional bool suspend = 10; optional int32 backoffLimitPerIndex = 12; optional int32 maxFailedIndexes = 13;
  optional string podReplacementPolicy = 14; optional string managedBy = 15;
}
message Job { optional ObjectMeta metadata = 1; optional JobSpec spec = 2; optional bytes status = 3; }
message JobTemplateSpec { optional ObjectMeta metadata = 1; optional JobSpec spec = 2; }
message CronJobSpec {
  optional string schedule = 1; optional int64 startingDeadlineSeconds = 2; optional string concurrencyPolicy = 3; optional bool suspend = 4;
  optional JobTemplateSpec jobTemplate = 5; optional int32 successfulJobsHistoryLimit = 6; optional int32 failedJobsHistoryLimit = 7; optional string timeZone = 8;
}
message CronJob { optional ObjectMeta metadata = 1; optional CronJobSpec spec = 2; optional bytes status = 3; }

// rbac.authorization.k8s.io/v1
message PolicyRule { repeated string verbs = 1; repeated string apiGroups = 2; repeated string resources = 3; repeated string resourceNames = 4; repeated string nonResourceURLs = 5; }
message AggregationRule { repeated LabelSelector clusterRoleSelectors = 1; }
message Role { optional ObjectMeta metadata = 1; repeated PolicyRule rules = 2; }
message ClusterRole { optional ObjectMeta metadata = 1; repeated PolicyRule rules = 2; optional AggregationRule aggregationRule = 3; }
message Subject { optional string kind = 1; optional string apiGroup = 2; optional string name = 3; optional string namespace = 4; }
message RoleRef { optional string apiGroup = 1; optional string kind = 2; optional string name = 3; }
message RoleBinding { optional ObjectMeta metadata = 1; repeated Subject subjects = 2; optional RoleRef roleRef = 3; }
message ClusterRoleBinding { optional ObjectMeta metadata = 1; repeated Subject subjects = 2; optional RoleRef roleRef = 3; }

// policy/v1
message PodDisruptionBudgetSpec { optional IntOrString minAvailable = 1; optional LabelSelector selector = 2; optional IntOrString maxUnavailable = 3; optional string unhealthyPodEvictionPolicy = 4; }
message PodDisruptionBudget { optional ObjectMeta metadata = 1; optional PodDisruptionBudgetSpec spec = 2; optional bytes status = 3; }
message Eviction { optional ObjectMeta metadata = 1; optional DeleteOptions deleteOptions = 2; }

// authorization.k8s.io/v1 and authentication.k8s.io/v1
message ResourceAttributes { optional string namespace = 1; optional string verb = 2; optional string group = 3; optional string version = 4; optional string resource = 5; optional string subresource = 6; optional string name = 7; }
message NonResourceAttributes { optional string path = 1; optional string verb = 2; }
message SelfSubjectAccessReviewSpec { optional ResourceAttributes resourceAttributes = 1; optional NonResourceAttributes nonResourceAttributes = 2; }
message SelfSubjectAccessReview { optional ObjectMeta metadata = 1; optional SelfSubjectAccessReviewSpec spec = 2; optional bytes status = 3; }
message SubjectAccessReviewSpec { optional ResourceAttributes resourceAttributes = 1; optional NonResourceAttributes nonResourceAttributes = 2; optional string user = 3; repeated string groups = 4; optional string uid = 6; }
message SubjectAccessReview { optional ObjectMeta metadata = 1; optional SubjectAccessReviewSpec spec = 2; optional bytes status = 3; }
message BoundObjectReference { optional string kind = 1; optional string apiVersion = 2; optional string name = 3; optional string uid = 4; }
message TokenRequestSpec { repeated string audiences = 1; optional BoundObjectReference boundObjectRef = 3; optional int64 expirationSeconds = 4; }
message TokenRequest { optional ObjectMeta metadata = 1; optional TokenRequestSpec spec = 2; optional bytes status = 3; }
`;

/**
 * The message of each `apiVersion/kind` a protobuf body may carry. A kind not listed is 415
 * Unsupported Media Type, naming the kind and what to use instead.
 */
export const PROTOBUF_KINDS: Readonly<Record<string, string>> = {
  'v1/Namespace': 'Namespace',
  'v1/ConfigMap': 'ConfigMap',
  'v1/Secret': 'Secret',
  'v1/ServiceAccount': 'ServiceAccount',
  'v1/Service': 'Service',
  'v1/ResourceQuota': 'ResourceQuota',
  'v1/Pod': 'Pod',
  'v1/Binding': 'Binding',
  'v1/DeleteOptions': 'DeleteOptions',
  'meta.k8s.io/v1/DeleteOptions': 'DeleteOptions',
  'apps/v1/Deployment': 'Deployment',
  'batch/v1/Job': 'Job',
  'batch/v1/CronJob': 'CronJob',
  'rbac.authorization.k8s.io/v1/Role': 'Role',
  'rbac.authorization.k8s.io/v1/ClusterRole': 'ClusterRole',
  'rbac.authorization.k8s.io/v1/RoleBinding': 'RoleBinding',
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': 'ClusterRoleBinding',
  'policy/v1/PodDisruptionBudget': 'PodDisruptionBudget',
  'policy/v1/Eviction': 'Eviction',
  'authorization.k8s.io/v1/SelfSubjectAccessReview': 'SelfSubjectAccessReview',
  'authorization.k8s.io/v1/SubjectAccessReview': 'SubjectAccessReview',
  'authentication.k8s.io/v1/TokenRequest': 'TokenRequest',
};

/**
 * Fields that are Go pointers upstream, so a zero or false on the wire was set on purpose and is
 * kept (`replicas: 0`). Every other zero, false and empty string is a Go zero value that protobuf
 * always writes and JSON leaves out (`omitempty`), so it is dropped. As `Message.field`.
 */
export const POINTER_FIELDS: ReadonlySet<string> = new Set([
  'ObjectMeta.deletionGracePeriodSeconds',
  'OwnerReference.controller',
  'OwnerReference.blockOwnerDeletion',
  'DeleteOptions.gracePeriodSeconds',
  'DeleteOptions.orphanDependents',
  'DeleteOptions.ignoreStoreReadErrorWithClusterBreakingPotential',
  'ConfigMap.immutable',
  'Secret.immutable',
  'ServiceAccount.automountServiceAccountToken',
  'ServiceSpec.allocateLoadBalancerNodePorts',
  'PodSpec.terminationGracePeriodSeconds',
  'PodSpec.activeDeadlineSeconds',
  'PodSpec.automountServiceAccountToken',
  'PodSpec.priority',
  'PodSpec.shareProcessNamespace',
  'PodSpec.enableServiceLinks',
  'PodSpec.setHostnameAsFQDN',
  'PodSpec.hostUsers',
  'Toleration.tolerationSeconds',
  'DeploymentSpec.replicas',
  'DeploymentSpec.revisionHistoryLimit',
  'DeploymentSpec.progressDeadlineSeconds',
  'JobSpec.parallelism',
  'JobSpec.completions',
  'JobSpec.activeDeadlineSeconds',
  'JobSpec.manualSelector',
  'JobSpec.backoffLimit',
  'JobSpec.ttlSecondsAfterFinished',
  'JobSpec.suspend',
  'JobSpec.backoffLimitPerIndex',
  'JobSpec.maxFailedIndexes',
  'CronJobSpec.startingDeadlineSeconds',
  'CronJobSpec.suspend',
  'CronJobSpec.successfulJobsHistoryLimit',
  'CronJobSpec.failedJobsHistoryLimit',
  'TokenRequestSpec.expirationSeconds',
]);
