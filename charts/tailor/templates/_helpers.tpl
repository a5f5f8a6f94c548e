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
{{- $data := dict "TAILOR_PROMETHEUS_URL" .Values.prometheus.url "TAILOR_LOG_LEVEL" .Values.logLevel -}}
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

{{/* The security context and /tmp volume mount of every Tailor container (the restricted profile). */}}
{{- define "tailor.containerSecurity" -}}
securityContext:
  allowPrivilegeEscalation: false
  readOnlyRootFilesystem: true
  privileged: false
  capabilities: {drop: [ALL]}
volumeMounts:
  - {name: tmp, mountPath: /tmp}
{{- end -}}

{{- define "tailor.podSecurity" -}}
securityContext:
  runAsNonRoot: true
  runAsUser: 65532
  runAsGroup: 65532
  seccompProfile: {type: RuntimeDefault}
{{- end -}}

{{/* The one volume: tsx's compile cache in the temporary directory (the root file system is read-only). */}}
{{- define "tailor.tmpVolume" -}}
volumes:
  - name: tmp
    emptyDir: {sizeLimit: 64Mi}
{{- end -}}

{{/* The namespace selector of every webhook: never the API server's own namespace, nor Tailor's. */}}
{{- define "tailor.webhookNamespaceSelector" -}}
namespaceSelector:
  matchExpressions:
    - {key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system, {{ .Release.Namespace }}]}
{{- end -}}
