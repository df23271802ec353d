{{/*
Names, labels, image, shared pod pieces, derived settings and the values check.
*/}}

{{/* Chart name, shortened to what a label allows. */}}
{{- define "leadgen.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Full name: prefix of every resource name. */}}
{{- define "leadgen.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* `chart-version` for the helm.sh/chart label. */}}
{{- define "leadgen.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Selector labels. Call with (dict "ctx" $ "component" "api"). */}}
{{- define "leadgen.selectorLabels" -}}
app.kubernetes.io/name: {{ include "leadgen.name" .ctx }}
app.kubernetes.io/instance: {{ .ctx.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{/* Every label. Call with (dict "ctx" $ "component" "api"). */}}
{{- define "leadgen.labels" -}}
helm.sh/chart: {{ include "leadgen.chart" .ctx }}
{{ include "leadgen.selectorLabels" . }}
app.kubernetes.io/version: {{ include "leadgen.imageTag" .ctx | quote }}
app.kubernetes.io/part-of: leadgen
app.kubernetes.io/managed-by: {{ .ctx.Release.Service }}
{{- with .ctx.Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* Image tag: image.tag, else the chart's appVersion. */}}
{{- define "leadgen.imageTag" -}}
{{- .Values.image.tag | default .Chart.AppVersion | toString | trunc 63 -}}
{{- end -}}

{{/* Image reference: by digest when one is given. */}}
{{- define "leadgen.image" -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository (include "leadgen.imageTag" .) -}}
{{- end -}}
{{- end -}}

{{/* ServiceAccount of the API and worker pods. */}}
{{- define "leadgen.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "leadgen.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* Secret the Leadgen containers read: the user's, or the chart's. */}}
{{- define "leadgen.secretName" -}}
{{- .Values.secrets.existingSecret | default (include "leadgen.fullname" .) -}}
{{- end -}}

{{/* LEADGEN_PUBLIC_URL: publicUrl, else the first ingress host. */}}
{{- define "leadgen.publicUrl" -}}
{{- if .Values.publicUrl -}}
{{- .Values.publicUrl -}}
{{- else if and .Values.ingress.enabled .Values.ingress.hosts -}}
{{- $host := (first .Values.ingress.hosts).host -}}
{{- $tls := false -}}
{{- range .Values.ingress.tls -}}
{{- if has $host (.hosts | default (list)) -}}{{- $tls = true -}}{{- end -}}
{{- end -}}
{{- printf "%s://%s" (ternary "https" "http" $tls) $host -}}
{{- end -}}
{{- end -}}

{{/* Names of the bundled services. */}}
{{- define "leadgen.postgresql.fullname" -}}
{{- printf "%s-postgresql" (include "leadgen.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- define "leadgen.redis.fullname" -}}
{{- printf "%s-redis" (include "leadgen.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* DATABASE_URL (chart-managed secrets only). */}}
{{- define "leadgen.databaseUrl" -}}
{{- if .Values.postgresql.enabled -}}
{{- $a := .Values.postgresql.auth -}}
{{- printf "postgres://%s:%s@%s:5432/%s" $a.username $a.password (include "leadgen.postgresql.fullname" .) $a.database -}}
{{- else -}}
{{- .Values.externalDatabase.url -}}
{{- end -}}
{{- end -}}

{{/* REDIS_URL (chart-managed secrets only). */}}
{{- define "leadgen.redisUrl" -}}
{{- if .Values.redis.enabled -}}
{{- if .Values.redis.auth.password -}}
{{- printf "redis://:%s@%s:6379/0" .Values.redis.auth.password (include "leadgen.redis.fullname" .) -}}
{{- else -}}
{{- printf "redis://%s:6379/0" (include "leadgen.redis.fullname" .) -}}
{{- end -}}
{{- else -}}
{{- .Values.externalRedis.url -}}
{{- end -}}
{{- end -}}

{{/*
The job queues, one per `registry!` line in worker/src/jobs/registry.rs (a test there
checks this list against the registry), each named `{LEADGEN_REDIS_PREFIX}.{kind}`. Our
queue store (worker/src/queue/on_redis.rs) keeps a kind's waiting jobs in two keys: the
list `{queue}:ready` (pushes join its tail, handed-back jobs its head) and the sorted set
`{queue}:delayed` (failed jobs due again later; watched too, so a fleet scaled to zero
wakes for a retry). KEDA's redis scaler measures either (LLEN for a list, ZCARD for a
sorted set).
*/}}
{{- define "leadgen.jobQueues" -}}
search.v1 webhook.v1 enrich.v1 prune.v1 delivery.v1 schedule.v1
{{- end -}}
{{- define "leadgen.queueWaitingKeys" -}}
{{- $prefix := .Values.config.redisPrefix -}}
{{- $keys := list -}}
{{- range $kind := splitList " " (include "leadgen.jobQueues" . | trim) -}}
{{- $keys = append $keys (printf "%s.%s:ready" $prefix $kind) -}}
{{- $keys = append $keys (printf "%s.%s:delayed" $prefix $kind) -}}
{{- end -}}
{{- join " " $keys -}}
{{- end -}}

{{/* Parsed externalRedis.url (empty dict when unset). */}}
{{- define "leadgen.redisUrlParts" -}}
{{- if .Values.externalRedis.url -}}
{{- toJson (urlParse .Values.externalRedis.url) -}}
{{- else -}}
{{- "{}" -}}
{{- end -}}
{{- end -}}

{{/* Redis host:port for KEDA ("" when it cannot be known). */}}
{{- define "leadgen.keda.redisAddress" -}}
{{- $r := .Values.worker.autoscaling.keda.redis -}}
{{- if $r.address -}}
{{- $r.address -}}
{{- else if .Values.redis.enabled -}}
{{- printf "%s:6379" (include "leadgen.redis.fullname" .) -}}
{{- else if and .Values.externalRedis.url (not .Values.secrets.existingSecret) -}}
{{- $u := include "leadgen.redisUrlParts" . | fromJson -}}
{{- if contains ":" $u.host -}}{{ $u.host }}{{- else -}}{{ printf "%s:6379" $u.host }}{{- end -}}
{{- end -}}
{{- end -}}

{{/* "user:password" from externalRedis.url ("" when none). */}}
{{- define "leadgen.keda.urlUserinfo" -}}
{{- if and .Values.externalRedis.url (not .Values.redis.enabled) -}}
{{- (include "leadgen.redisUrlParts" . | fromJson).userinfo | default "" -}}
{{- end -}}
{{- end -}}

{{/* Secret name and key of the Redis password KEDA uses, as JSON ({} when none). */}}
{{- define "leadgen.keda.passwordRef" -}}
{{- $ps := .Values.worker.autoscaling.keda.redis.passwordSecret -}}
{{- $userinfo := include "leadgen.keda.urlUserinfo" . -}}
{{- if $ps.name -}}
{{- toJson (dict "name" $ps.name "key" $ps.key) -}}
{{- else if and .Values.redis.enabled .Values.redis.auth.password -}}
{{- toJson (dict "name" (include "leadgen.redis.fullname" .) "key" "redis-password") -}}
{{- else if contains ":" $userinfo -}}
{{- toJson (dict "name" (printf "%s-keda" (include "leadgen.fullname" .)) "key" "redis-password") -}}
{{- else -}}
{{- "{}" -}}
{{- end -}}
{{- end -}}

{{/* Pod-level fields every Leadgen pod shares. */}}
{{- define "leadgen.podCommon" -}}
serviceAccountName: {{ include "leadgen.serviceAccountName" . }}
automountServiceAccountToken: false
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
securityContext:
  {{- toYaml .Values.podSecurityContext | nindent 2 }}
{{- end -}}

{{/* The writable /tmp every Leadgen pod mounts (root file system is read-only). */}}
{{- define "leadgen.tmpVolume" -}}
- name: tmp
  emptyDir:
    sizeLimit: {{ .Values.tmpSizeLimit }}
{{- end -}}
{{- define "leadgen.tmpMount" -}}
- name: tmp
  mountPath: /tmp
{{- end -}}

{{/* Settings from the ConfigMap and the Secret, as environment variables. */}}
{{- define "leadgen.envFrom" -}}
- configMapRef:
    name: {{ include "leadgen.fullname" . }}
- secretRef:
    name: {{ include "leadgen.secretName" . }}
{{- end -}}

{{/* Annotations that roll the pods when settings change. */}}
{{- define "leadgen.checksums" -}}
checksum/config: {{ include (print .Template.BasePath "/configmap.yaml") . | sha256sum }}
{{- if not .Values.secrets.existingSecret }}
checksum/secret: {{ include (print .Template.BasePath "/secret.yaml") . | sha256sum }}
{{- end }}
{{- end -}}

{{/* Topology spread with this component's selector filled in. (dict "ctx" $ "component" "api" "constraints" list) */}}
{{- define "leadgen.topologySpread" -}}
{{- $selector := include "leadgen.selectorLabels" (dict "ctx" .ctx "component" .component) | fromYaml -}}
{{- $out := list -}}
{{- range .constraints -}}
{{- $out = append $out (merge (dict "labelSelector" (dict "matchLabels" $selector)) (omit . "labelSelector")) -}}
{{- end -}}
{{- toYaml $out -}}
{{- end -}}

{{/*
The secret settings of a chart-managed Secret (name -> value), as YAML. Optional ones
appear only when set: an empty SENTRY_DSN or STRIPE_SECRET_KEY means "off".
*/}}
{{- define "leadgen.secretData" -}}
{{- $s := .Values.secrets -}}
{{- $d := dict "DATABASE_URL" (include "leadgen.databaseUrl" .) "REDIS_URL" (include "leadgen.redisUrl" .) "LEADGEN_ENCRYPTION_KEY" $s.encryptionKey "LEADGEN_JWT_SECRET" $s.jwtSecret -}}
{{- $optional := dict "LEADGEN_PREVIOUS_ENCRYPTION_KEYS" $s.previousEncryptionKeys "LEADGEN_OIDC_CLIENT_SECRET" $s.oidcClientSecret "SENTRY_DSN" $s.sentryDsn "STRIPE_SECRET_KEY" $s.stripeSecretKey "STRIPE_WEBHOOK_SECRET" $s.stripeWebhookSecret "LEADGEN_SMTP_URL" $s.smtpUrl -}}
{{- range $k, $v := $optional }}{{ if $v }}{{ $_ := set $d $k $v }}{{ end }}{{ end -}}
{{- range $k, $v := $s.extra }}{{ $_ := set $d $k (toString $v) }}{{ end -}}
{{- toYaml $d -}}
{{- end -}}

{{/*
Checks the values and stops with one message listing every problem. Included at the top
of configmap.yaml, which every render has.
*/}}
{{- define "leadgen.validate" -}}
{{- $v := .Values -}}
{{- $s := $v.secrets -}}
{{- $missing := list -}}
{{- $conflicts := list -}}

{{- if not $v.config.oidc.clientId -}}
{{- $missing = append $missing "config.oidc.clientId: an OIDC client id is required (without an identity provider Leadgen only allows local sign-in on a loopback address, which a pod behind a Service is not)" -}}
{{- end -}}
{{- if not (include "leadgen.publicUrl" .) -}}
{{- $missing = append $missing "publicUrl: the address browsers use (https://leads.example.com), or turn on the ingress with a host" -}}
{{- end -}}
{{- if not (has $v.config.logFormat (list "json" "text")) -}}
{{- $conflicts = append $conflicts (printf "config.logFormat must be json or text, not %q" (toString $v.config.logFormat)) -}}
{{- end -}}

{{- if $s.existingSecret -}}
{{- $inline := list -}}
{{- range $k := list "encryptionKey" "previousEncryptionKeys" "jwtSecret" "oidcClientSecret" "sentryDsn" "stripeSecretKey" "stripeWebhookSecret" "smtpUrl" -}}
{{- if index $s $k }}{{ $inline = append $inline (printf "secrets.%s" $k) }}{{ end -}}
{{- end -}}
{{- if $s.extra }}{{ $inline = append $inline "secrets.extra" }}{{ end -}}
{{- if $v.externalDatabase.url }}{{ $inline = append $inline "externalDatabase.url" }}{{ end -}}
{{- if $v.externalRedis.url }}{{ $inline = append $inline "externalRedis.url" }}{{ end -}}
{{- if $inline -}}
{{- $conflicts = append $conflicts (printf "secrets.existingSecret (%s) is set together with %s: put those settings in that Secret instead (the chart would silently ignore them)" $s.existingSecret (join ", " $inline)) -}}
{{- end -}}
{{- if or $v.postgresql.enabled $v.redis.enabled -}}
{{- $conflicts = append $conflicts "secrets.existingSecret cannot be combined with the bundled postgresql/redis, whose URLs the chart writes into its own Secret" -}}
{{- end -}}
{{- else -}}
{{- if and $v.postgresql.enabled $v.externalDatabase.url -}}
{{- $conflicts = append $conflicts "postgresql.enabled and externalDatabase.url are both set: use one database" -}}
{{- else if $v.postgresql.enabled -}}
{{- if not $v.postgresql.auth.password }}{{ $missing = append $missing "postgresql.auth.password: the bundled Postgres needs a password" }}{{ end -}}
{{- else if not $v.externalDatabase.url -}}
{{- $missing = append $missing "externalDatabase.url (DATABASE_URL), or secrets.existingSecret, or postgresql.enabled for a trial" -}}
{{- end -}}
{{- if and $v.redis.enabled $v.externalRedis.url -}}
{{- $conflicts = append $conflicts "redis.enabled and externalRedis.url are both set: use one Redis" -}}
{{- else if and (not $v.redis.enabled) (not $v.externalRedis.url) -}}
{{- $missing = append $missing "externalRedis.url (REDIS_URL), or secrets.existingSecret, or redis.enabled for a trial" -}}
{{- end -}}
{{- if not $s.encryptionKey -}}
{{- $missing = append $missing "secrets.encryptionKey (LEADGEN_ENCRYPTION_KEY: openssl rand -base64 32), or secrets.existingSecret" -}}
{{- else if ne (len (b64dec $s.encryptionKey)) 32 -}}
{{- $conflicts = append $conflicts "secrets.encryptionKey must be the base64 of exactly 32 bytes (openssl rand -base64 32)" -}}
{{- end -}}
{{- if not $s.jwtSecret -}}
{{- $missing = append $missing "secrets.jwtSecret (LEADGEN_JWT_SECRET, at least 32 characters), or secrets.existingSecret" -}}
{{- else if lt (len $s.jwtSecret) 32 -}}
{{- $conflicts = append $conflicts "secrets.jwtSecret must be at least 32 characters" -}}
{{- end -}}
{{- if $s.stripeSecretKey -}}
{{- $st := $v.config.stripe -}}
{{- range $pair := list (list "secrets.stripeWebhookSecret" $s.stripeWebhookSecret) (list "config.stripe.priceMonthly" $st.priceMonthly) (list "config.stripe.priceYearly" $st.priceYearly) -}}
{{- if not (index $pair 1) }}{{ $missing = append $missing (printf "%s: required with secrets.stripeSecretKey (billing)" (index $pair 0)) }}{{ end -}}
{{- end -}}
{{- if and $s.stripeWebhookSecret (not (hasPrefix "whsec_" $s.stripeWebhookSecret)) -}}
{{- $conflicts = append $conflicts "secrets.stripeWebhookSecret must be the endpoint's signing secret (whsec_...)" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- $as := $v.api.autoscaling -}}
{{- if and $as.enabled (gt (int $as.minReplicas) (int $as.maxReplicas)) -}}
{{- $conflicts = append $conflicts (printf "api.autoscaling.minReplicas (%v) is above maxReplicas (%v)" $as.minReplicas $as.maxReplicas) -}}
{{- end -}}
{{- if gt (add (int $v.worker.drainSeconds) 10) (int $v.worker.terminationGracePeriodSeconds) -}}
{{- $conflicts = append $conflicts (printf "worker.drainSeconds (%v) must be at least 10 below worker.terminationGracePeriodSeconds (%v): a worker killed while draining cannot hand its searches back" $v.worker.drainSeconds $v.worker.terminationGracePeriodSeconds) -}}
{{- end -}}
{{- if lt (int $v.worker.drainSeconds) 1 -}}
{{- $conflicts = append $conflicts "worker.drainSeconds must be at least 1" -}}
{{- end -}}
{{- $ws := $v.worker.autoscaling -}}
{{- if $ws.enabled -}}
{{- if not (has (toString $ws.autoscaler) (list "hpa" "keda")) -}}
{{- $conflicts = append $conflicts (printf "worker.autoscaling.autoscaler is %q: it must be exactly one of \"hpa\" or \"keda\". An HPA and a KEDA ScaledObject on the same Deployment would both own its replica count and fight over it" (toString $ws.autoscaler)) -}}
{{- end -}}
{{- if gt (int $ws.minReplicas) (int $ws.maxReplicas) -}}
{{- $conflicts = append $conflicts (printf "worker.autoscaling.minReplicas (%v) is above maxReplicas (%v)" $ws.minReplicas $ws.maxReplicas) -}}
{{- end -}}
{{- if and (eq (toString $ws.autoscaler) "hpa") (lt (int $ws.minReplicas) 1) -}}
{{- $conflicts = append $conflicts "worker.autoscaling.minReplicas is 0 with autoscaler hpa: a CPU HPA cannot wake workers from zero (only KEDA, which watches the queue, can)" -}}
{{- end -}}
{{- if and (eq (toString $ws.autoscaler) "keda") $s.existingSecret (not (include "leadgen.keda.redisAddress" .)) -}}
{{- $missing = append $missing "worker.autoscaling.keda.redis.address: KEDA needs the Redis host:port (the chart cannot read it from secrets.existingSecret)" -}}
{{- end -}}
{{- end -}}
{{- if and $v.redis.enabled $v.redis.auth.password (not (regexMatch "^[A-Za-z0-9]+$" $v.redis.auth.password)) -}}
{{- $conflicts = append $conflicts "redis.auth.password: use letters and digits only (it is written into REDIS_URL)" -}}
{{- end -}}
{{- if and $v.postgresql.enabled $v.postgresql.auth.password (not (regexMatch "^[A-Za-z0-9]+$" $v.postgresql.auth.password)) -}}
{{- $conflicts = append $conflicts "postgresql.auth.password: use letters and digits only (it is written into DATABASE_URL)" -}}
{{- end -}}

{{- if or $missing $conflicts -}}
{{- $lines := list -}}
{{- range $missing }}{{ $lines = append $lines (printf "missing: %s" .) }}{{ end -}}
{{- range $conflicts }}{{ $lines = append $lines (printf "invalid: %s" .) }}{{ end -}}
{{- fail (printf "\n\nleadgen chart: these values cannot be deployed:\n  - %s\n" (join "\n  - " $lines)) -}}
{{- end -}}
{{- end -}}

{{/*
NetworkPolicy pieces (templates/networkpolicy.yaml). The port of Postgres or Redis: the
value's, else the one in the URL, else the default.
*/}}
{{- define "leadgen.np.port" -}}
{{- $port := .port | toString -}}
{{- if and (not $port) .url -}}
{{- $port = regexFind "[0-9]+$" (regexFind ":[0-9]+$" (urlParse .url).host) -}}
{{- end -}}
{{- $port | default .default -}}
{{- end -}}

{{/* Egress every Leadgen process needs: DNS, and Postgres. */}}
{{- define "leadgen.np.egressBase" -}}
{{- $np := .Values.networkPolicy -}}
- to:
    {{- toYaml $np.dns.to | nindent 4 }}
  ports:
    - {protocol: UDP, port: 53}
    - {protocol: TCP, port: 53}
{{- $pg := include "leadgen.np.port" (dict "port" $np.postgres.port "url" (ternary "" .Values.externalDatabase.url .Values.postgresql.enabled) "default" "5432") }}
- ports:
    - {protocol: TCP, port: {{ $pg }}}
  {{- if .Values.postgresql.enabled }}
  to:
    - podSelector:
        matchLabels:
          {{- include "leadgen.selectorLabels" (dict "ctx" . "component" "postgresql") | nindent 10 }}
  {{- else if $np.postgres.to }}
  to:
    {{- toYaml $np.postgres.to | nindent 4 }}
  {{- end }}
{{- end -}}

{{/* Egress of the API and the workers: the base, Redis, and the public internet. */}}
{{- define "leadgen.np.egress" -}}
{{- $np := .Values.networkPolicy -}}
{{- include "leadgen.np.egressBase" . }}
{{- $rd := include "leadgen.np.port" (dict "port" $np.redis.port "url" (ternary "" .Values.externalRedis.url .Values.redis.enabled) "default" "6379") }}
- ports:
    - {protocol: TCP, port: {{ $rd }}}
  {{- if .Values.redis.enabled }}
  to:
    - podSelector:
        matchLabels:
          {{- include "leadgen.selectorLabels" (dict "ctx" . "component" "redis") | nindent 10 }}
  {{- else if $np.redis.to }}
  to:
    {{- toYaml $np.redis.to | nindent 4 }}
  {{- end }}
{{- $v4 := list "10.0.0.0/8" "172.16.0.0/12" "192.168.0.0/16" "169.254.0.0/16" "100.64.0.0/10" "127.0.0.0/8" "0.0.0.0/8" -}}
{{- $v6 := list "fc00::/7" "fe80::/10" "::ffff:0:0/96" -}}
{{- range $np.clusterCidrs -}}
{{- if contains ":" . }}{{ $v6 = append $v6 . }}{{ else }}{{ $v4 = append $v4 . }}{{ end -}}
{{- end }}
# The public internet: Google, Stripe, the identity provider, businesses' websites and
# webhook endpoints. Never the cluster's, private, link-local (cloud metadata) or
# shared-address ranges.
- to:
    - ipBlock:
        cidr: 0.0.0.0/0
        except:
          {{- toYaml (uniq $v4) | nindent 10 }}
    - ipBlock:
        cidr: ::/0
        except:
          {{- toYaml (uniq $v6) | nindent 10 }}
{{- with $np.extraEgress }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/*
Affinity of a component's pods: its `affinity` value when set, else anti-affinity to its own
pods by node (`podAntiAffinity`: soft prefers other nodes, hard requires them, "" none).
(dict "ctx" $ "component" "api" "values" .Values.api)
*/}}
{{- define "leadgen.affinity" -}}
{{- $v := .values -}}
{{- if $v.affinity -}}
{{- toYaml $v.affinity -}}
{{- else if $v.podAntiAffinity -}}
{{- $term := dict "topologyKey" "kubernetes.io/hostname" "labelSelector" (dict "matchLabels" (include "leadgen.selectorLabels" (dict "ctx" .ctx "component" .component) | fromYaml)) -}}
podAntiAffinity:
{{- if eq $v.podAntiAffinity "hard" }}
  requiredDuringSchedulingIgnoredDuringExecution:
    {{- toYaml (list $term) | nindent 4 }}
{{- else }}
  preferredDuringSchedulingIgnoredDuringExecution:
    - weight: 100
      podAffinityTerm:
        {{- toYaml $term | nindent 8 }}
{{- end }}
{{- end -}}
{{- end -}}
