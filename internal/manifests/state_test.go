package manifests

import "testing"

// TestPoolOfMatchExpressions: a custom pool whose nodeSelector uses
// matchExpressions takes the nodes it matches, as MCO matches it
// (metav1.LabelSelectorAsSelector), over worker; a pool without a
// nodeSelector takes none.
func TestPoolOfMatchExpressions(t *testing.T) {
	objs, probs := Scan("state.yaml", []byte(`apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfigPool
metadata:
  name: worker
spec:
  nodeSelector:
    matchLabels:
      node-role.kubernetes.io/worker: ""
---
apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfigPool
metadata:
  name: infra
spec:
  nodeSelector:
    matchLabels:
      node-role.kubernetes.io/worker: ""
    matchExpressions:
    - key: node-role.kubernetes.io/infra
      operator: Exists
---
apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfigPool
metadata:
  name: unselecting
spec: {}
---
apiVersion: v1
kind: Node
metadata:
  name: infra-0
  labels:
    node-role.kubernetes.io/worker: ""
    node-role.kubernetes.io/infra: ""
---
apiVersion: v1
kind: Node
metadata:
  name: worker-0
  labels:
    node-role.kubernetes.io/worker: ""
---
apiVersion: v1
kind: Node
metadata:
  name: other-0
  labels:
    example.com/role: other
`))
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	st := ReadState(objs)
	want := map[string]string{"infra-0": "infra", "worker-0": "worker", "other-0": ""}
	if len(st.Nodes) != len(want) {
		t.Fatalf("%d nodes, want %d", len(st.Nodes), len(want))
	}
	for _, n := range st.Nodes {
		if got := st.PoolOf(n); got != want[n.Name] {
			t.Errorf("PoolOf(%s) = %q, want %q", n.Name, got, want[n.Name])
		}
	}
}
