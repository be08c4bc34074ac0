// Generates a large, realistic-looking cluster dump for the benchmarks: NODES nodes and
// PODS pods bound to them, each pod padded with the labels, annotations, env and status
// that real `kubectl get -o yaml` dumps carry (about 2 KB a pod: 150 000 pods make about 300 MB).
export function cluster({ nodes = 5000, pods = 150000, padding = true } = {}) {
  const parts = ['apiVersion: v1\nkind: List\nitems:\n'];
  for (let n = 0; n < nodes; n += 1) {
    parts.push(`- apiVersion: v1
  kind: Node
  metadata:
    name: node-${n}
    labels: {kubernetes.io/hostname: node-${n}, topology.kubernetes.io/zone: zone-${n % 3}, node-role.kubernetes.io/worker: ""}
  spec: {}
  status:
    allocatable: {cpu: "32", memory: 128Gi, pods: "110", ephemeral-storage: 200Gi}
    capacity: {cpu: "32", memory: 128Gi, pods: "110", ephemeral-storage: 200Gi}
    conditions:
    - {type: Ready, status: "True", reason: KubeletReady, message: kubelet is posting ready status}
`);
  }
  const pad = padding
    ? `      annotations:
        kubectl.kubernetes.io/last-applied-configuration: '{"apiVersion":"v1","kind":"Pod","metadata":{"labels":{"app":"svc"}},"spec":{"containers":[{"image":"registry.example.com/team/service:1.2.3","name":"app"}]}}'
        kubernetes.io/change-cause: "kubectl set image deployment/svc app=registry.example.com/team/service:1.2.3 --record=true (rollout 42 by the release pipeline, ticket OPS-1234, approved by the on-call engineer after canary analysis)"
        prometheus.io/scrape: "true"
        prometheus.io/port: "9090"
`
    : '';
  const env = padding
    ? `      env:
      - {name: LOG_LEVEL, value: info}
      - {name: POD_NAME, valueFrom: {fieldRef: {fieldPath: metadata.name}}}
      - {name: POD_IP, valueFrom: {fieldRef: {fieldPath: status.podIP}}}
      ports:
      - {containerPort: 8080, name: http, protocol: TCP}
      - {containerPort: 9090, name: metrics, protocol: TCP}
      readinessProbe: {httpGet: {path: /ready, port: 8080}, periodSeconds: 10}
      livenessProbe: {httpGet: {path: /live, port: 8080}, periodSeconds: 10}
`
    : '';
  const status = padding
    ? `    status:
      phase: Running
      hostIP: 10.0.0.1
      podIP: 10.1.2.3
      qosClass: Burstable
      conditions:
      - {type: Initialized, status: "True", lastTransitionTime: "2026-01-01T00:00:00Z"}
      - {type: Ready, status: "True", lastTransitionTime: "2026-01-01T00:00:00Z"}
      - {type: ContainersReady, status: "True", lastTransitionTime: "2026-01-01T00:00:00Z"}
      - {type: PodScheduled, status: "True", lastTransitionTime: "2026-01-01T00:00:00Z"}
      containerStatuses:
      - {name: app, ready: true, restartCount: 0, image: "registry.example.com/team/service:1.2.3", started: true}
`
    : '';
  for (let p = 0; p < pods; p += 1) {
    parts.push(`- apiVersion: v1
  kind: Pod
  metadata:
    name: svc-${p}
    namespace: team-${p % 40}
    labels: {app: svc-${p % 500}, tier: backend, pod-template-hash: 7d9f8c6b5d}
${pad.replace(/^ {2}/gm, '')}  spec:
    nodeName: node-${p % nodes}
    priority: 0
    containers:
    - name: app
      image: registry.example.com/team/service:1.2.3
      resources:
        requests: {cpu: 100m, memory: 256Mi}
        limits: {cpu: 500m, memory: 512Mi}
${env.replace(/^ {2}/gm, '')}${status.replace(/^ {2}/gm, '')}`);
  }
  return Buffer.from(parts.join(''));
}
