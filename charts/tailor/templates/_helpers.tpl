{{/*
Labels of every object: the kustomize manifests' own (app.kubernetes.io/name, and
app.kubernetes.io/component when given) plus Helm's (chart, release, managed-by, version), which
the pod templates and selectors do not get (so a chart upgrade alone restarts no pod).
Usage: include "tailor.labels" (list $ "recommender")   or   (list $ "") for none
*/}}
{{- define "tailor.labels" -}}
{{- $root := index . 0 -}}
{{- $component := index . 1 -}}
app.kubernetes.io/name: tailor
{{- if $component }}
app.kubernetes.io/component: {{ $component }}
{{- end }}
{{ include "tailor.helmLabels" $root }}
{{- end -}}

{{/* Helm's labels alone (docs/helm.md: the only labels the chart adds to the kustomize objects'). */}}
{{- define "tailor.helmLabels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
{{- end -}}

{{/* The selector labels of a component (also its pod template's labels). */}}
{{- define "tailor.selector" -}}
{app.kubernetes.io/name: tailor, app.kubernetes.io/component: {{ . }}}
{{- end -}}

{{- define "tailor.image" -}}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) -}}
{{- end -}}

{{/* The data of ConfigMap tailor-config (also hashed into the pods' checksum/config annotation). */}}
{{- define "tailor.configData" -}}
{{- include "tailor.checkPrometheus" . -}}
{{- $data := dict "TAILOR_PROMETHEUS_URL" .Values.prometheus.url "TAILOR_LOG_LEVEL" .Values.logLevel -}}
{{- with .Values.recommendationStrategy -}}
{{- if not (has . (list "vpa" "tailor" "tailor-low-churn")) -}}
{{- fail (printf "recommendationStrategy: %s is none of vpa, tailor, tailor-low-churn" .) -}}
{{- end -}}
{{- if hasKey $.Values.config "TAILOR_RECOMMENDER_STRATEGY" -}}
{{- fail "recommendationStrategy and config.TAILOR_RECOMMENDER_STRATEGY: give the strategy once (recommendationStrategy also reaches the audit)" -}}
{{- end -}}
{{- $_ := set $data "TAILOR_RECOMMENDER_STRATEGY" . -}}
{{- end -}}
{{- with .Values.prometheus.headers -}}
{{- $headers := list -}}
{{- range $k, $v := . }}{{ $headers = append $headers (printf "%s: %v" $k $v) }}{{ end -}}
{{- $_ := set $data "TAILOR_PROMETHEUS_HEADERS" (join ", " $headers) -}}
{{- end -}}
{{- if and .Values.upstreamWebhookNames .Values.admission.enabled -}}
{{- $_ := set $data "TAILOR_ADMISSION_WEBHOOK_LAYOUT" "upstream" -}}
{{- end -}}
{{- range $k, $v := .Values.config -}}
{{- if not (regexMatch "^TAILOR_[A-Z0-9_]+$" $k) -}}
{{- fail (printf "config.%s: the keys of config are TAILOR_* variables (docs/configuration.md)" $k) -}}
{{- end -}}
{{- $_ := set $data $k (toString $v) -}}
{{- end -}}
{{- range $k, $v := $data }}
{{ $k }}: {{ $v | quote }}
{{- end -}}
{{- end -}}

{{/*
The pod spec parts every component shares after its serviceAccountName: the security context, image
pull secrets and scheduling (the component's own nodeSelector/tolerations/affinity, else the global).
Usage: include "tailor.podScheduling" (list $ .Values.recommender)
*/}}
{{- define "tailor.podScheduling" -}}
{{- $root := index . 0 -}}
{{- $c := index . 1 -}}
{{- with $root.Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with ($c.nodeSelector | default $root.Values.nodeSelector) }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with ($c.tolerations | default $root.Values.tolerations) }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with ($c.affinity | default $root.Values.affinity) }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/*
The container parts after its name: image, args (the component's then extraArgs), env (envFrom the
ConfigMap, the component's variables, NODE_OPTIONS among them, then extraEnv).
Usage: include "tailor.containerHead" (list $ .Values.recommender (list "run" "--components" "recommender") $env)
*/}}
{{- define "tailor.containerHead" -}}
{{- $root := index . 0 -}}
{{- $c := index . 1 -}}
{{- $args := concat (index . 2) ($c.extraArgs | default list) -}}
{{- $env := index . 3 -}}
image: {{ include "tailor.image" $root }}
{{- with $root.Values.image.pullPolicy }}
imagePullPolicy: {{ . }}
{{- end }}
args:
  {{- toYaml $args | nindent 2 }}
envFrom:
  - configMapRef: {name: tailor-config}
env:
  {{- toYaml $env | nindent 2 }}
  {{- with $c.extraEnv }}
  {{- toYaml . | nindent 2 }}
  {{- end }}
{{- end -}}

{{/*
The security context and volume mounts of every Tailor container (the restricted profile): /tmp,
then the component's own mounts (a list, maybe empty).
Usage: include "tailor.containerSecurity" (list $ $mounts)
*/}}
{{- define "tailor.containerSecurity" -}}
securityContext:
  allowPrivilegeEscalation: false
  readOnlyRootFilesystem: true
  privileged: false
  capabilities: {drop: [ALL]}
volumeMounts:
  - {name: tmp, mountPath: /tmp}
  {{- with index . 1 }}
  {{- toYaml . | nindent 2 }}
  {{- end }}
{{- end -}}

{{- define "tailor.podSecurity" -}}
securityContext:
  runAsNonRoot: true
  runAsUser: 65532
  runAsGroup: 65532
  seccompProfile: {type: RuntimeDefault}
{{- end -}}

{{/*
The volumes: tsx's compile cache in the temporary directory (the root file system is read-only),
then the component's own (a list, maybe empty).
Usage: include "tailor.volumes" (list $ $volumes)
*/}}
{{- define "tailor.volumes" -}}
volumes:
  - name: tmp
    emptyDir: {sizeLimit: 64Mi}
  {{- with index . 1 }}
  {{- toYaml . | nindent 2 }}
  {{- end }}
{{- end -}}

{{/*
Prometheus' credentials and CA (prometheus.bearerToken, basicAuth, ca) for the recommender and the
updater: the volumes, their mounts and the variables (TAILOR_PROMETHEUS_BEARER_TOKEN_FILE,
TAILOR_PROMETHEUS_BASIC_AUTH, TAILOR_PROMETHEUS_CA_FILE: docs/configuration.md#prometheus). The
audit takes the same volumes and the same files as flags (tailor.prometheusAuditArgs). Each renders
a YAML list, maybe empty; read them with fromYamlArray.
*/}}
{{- define "tailor.prometheusVolumes" -}}
{{- $p := .Values.prometheus -}}
{{- $v := list -}}
{{- if $p.bearerToken.secretName -}}
{{- $v = append $v (dict "name" "prometheus-token" "secret" (dict "secretName" $p.bearerToken.secretName "items" (list (dict "key" $p.bearerToken.key "path" "token")))) -}}
{{- end -}}
{{- if $p.ca.secretName -}}
{{- $v = append $v (dict "name" "prometheus-ca" "secret" (dict "secretName" $p.ca.secretName "items" (list (dict "key" $p.ca.key "path" "ca.crt")))) -}}
{{- else if $p.ca.configMapName -}}
{{- $v = append $v (dict "name" "prometheus-ca" "configMap" (dict "name" $p.ca.configMapName "items" (list (dict "key" $p.ca.key "path" "ca.crt")))) -}}
{{- end -}}
{{- toYaml $v -}}
{{- end -}}

{{- define "tailor.prometheusMounts" -}}
{{- $p := .Values.prometheus -}}
{{- $m := list -}}
{{- if $p.bearerToken.secretName -}}
{{- $m = append $m (dict "name" "prometheus-token" "mountPath" "/etc/tailor/prometheus-token" "readOnly" true) -}}
{{- end -}}
{{- if or $p.ca.secretName $p.ca.configMapName -}}
{{- $m = append $m (dict "name" "prometheus-ca" "mountPath" "/etc/tailor/prometheus-ca" "readOnly" true) -}}
{{- end -}}
{{- toYaml $m -}}
{{- end -}}

{{/* The basic-auth user and password from their Secret, for $(...) references (not TAILOR_* variables themselves). */}}
{{- define "tailor.prometheusBasicAuthEnv" -}}
{{- $b := .Values.prometheus.basicAuth -}}
{{- $e := list -}}
{{- if $b.secretName -}}
{{- $e = append $e (dict "name" "PROMETHEUS_BASIC_AUTH_USERNAME" "valueFrom" (dict "secretKeyRef" (dict "name" $b.secretName "key" $b.usernameKey))) -}}
{{- $e = append $e (dict "name" "PROMETHEUS_BASIC_AUTH_PASSWORD" "valueFrom" (dict "secretKeyRef" (dict "name" $b.secretName "key" $b.passwordKey))) -}}
{{- end -}}
{{- toYaml $e -}}
{{- end -}}

{{- define "tailor.prometheusEnv" -}}
{{- $p := .Values.prometheus -}}
{{- $e := list -}}
{{- if $p.bearerToken.secretName -}}
{{- $e = append $e (dict "name" "TAILOR_PROMETHEUS_BEARER_TOKEN_FILE" "value" "/etc/tailor/prometheus-token/token") -}}
{{- end -}}
{{- if $p.basicAuth.secretName -}}
{{- $e = concat $e (include "tailor.prometheusBasicAuthEnv" . | fromYamlArray) -}}
{{- $e = append $e (dict "name" "TAILOR_PROMETHEUS_BASIC_AUTH" "value" "$(PROMETHEUS_BASIC_AUTH_USERNAME):$(PROMETHEUS_BASIC_AUTH_PASSWORD)") -}}
{{- end -}}
{{- if or $p.ca.secretName $p.ca.configMapName -}}
{{- $e = append $e (dict "name" "TAILOR_PROMETHEUS_CA_FILE" "value" "/etc/tailor/prometheus-ca/ca.crt") -}}
{{- end -}}
{{- toYaml $e -}}
{{- end -}}

{{/* The same for `tailor audit`, which reads flags: --header, --bearer-token-file, --basic-auth, --ca-file. */}}
{{- define "tailor.prometheusAuditArgs" -}}
{{- $p := .Values.prometheus -}}
{{- $a := list -}}
{{- range $k, $v := $p.headers -}}
{{- $a = append $a (printf "--header=%s: %v" $k $v) -}}
{{- end -}}
{{- if $p.bearerToken.secretName -}}
{{- $a = append $a "--bearer-token-file=/etc/tailor/prometheus-token/token" -}}
{{- end -}}
{{- if $p.basicAuth.secretName -}}
{{- $a = append $a "--basic-auth=$(PROMETHEUS_BASIC_AUTH_USERNAME):$(PROMETHEUS_BASIC_AUTH_PASSWORD)" -}}
{{- end -}}
{{- if or $p.ca.secretName $p.ca.configMapName -}}
{{- $a = append $a "--ca-file=/etc/tailor/prometheus-ca/ca.crt" -}}
{{- end -}}
{{- toYaml $a -}}
{{- end -}}

{{/* The Prometheus values Tailor would refuse, refused at render time instead. */}}
{{- define "tailor.checkPrometheus" -}}
{{- $p := .Values.prometheus -}}
{{- if and $p.bearerToken.secretName $p.basicAuth.secretName -}}
{{- fail "prometheus.bearerToken and prometheus.basicAuth: give at most one kind of Prometheus credentials (Tailor refuses both)" -}}
{{- end -}}
{{- if and $p.ca.secretName $p.ca.configMapName -}}
{{- fail "prometheus.ca: give secretName or configMapName, not both" -}}
{{- end -}}
{{- range $k, $v := $p.headers -}}
{{- if or (contains "," (toString $v)) (contains "," $k) (contains ":" $k) -}}
{{- fail (printf "prometheus.headers.%s: TAILOR_PROMETHEUS_HEADERS is a comma-separated list of \"Name: value\", so a header can hold no comma (nor a colon in its name)" $k) -}}
{{- end -}}
{{- end -}}
{{- if and $p.headers (hasKey .Values.config "TAILOR_PROMETHEUS_HEADERS") -}}
{{- fail "config.TAILOR_PROMETHEUS_HEADERS and prometheus.headers: give the headers once (prometheus.headers also reaches the audit)" -}}
{{- end -}}
{{- end -}}

{{/* The namespace selector of every webhook: never the API server's own namespace, nor Tailor's. */}}
{{- define "tailor.webhookNamespaceSelector" -}}
namespaceSelector:
  matchExpressions:
    - {key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system, {{ .Release.Namespace }}]}
{{- end -}}


{{/*
Where the webhook's serving certificate comes from (admission.tls): "selfSigned" (the webhook's own
CA in Secret tailor-webhook-ca), "existingSecret" or "certManager".
*/}}
{{- define "tailor.webhookTls" -}}
{{- $t := .Values.admission.tls -}}
{{- if and $t.existingSecret $t.certManager.enabled -}}
{{- fail "admission.tls: give existingSecret or certManager.enabled, not both" -}}
{{- end -}}
{{- if $t.certManager.enabled }}certManager{{ else if $t.existingSecret }}existingSecret{{ else }}selfSigned{{ end -}}
{{- end -}}

{{/* The annotations of the webhook configurations: cert-manager's cainjector writes their caBundle. */}}
{{- define "tailor.webhookAnnotations" -}}
{{- if eq (include "tailor.webhookTls" .) "certManager" }}
annotations:
  cert-manager.io/inject-ca-from: {{ .Release.Namespace }}/tailor-webhook
{{- end }}
{{- end -}}
