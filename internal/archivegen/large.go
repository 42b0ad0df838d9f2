package archivegen

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	corev1 "k8s.io/api/core/v1"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/siteforge/siteforge/internal/platform"
)

// LargeStats says what WriteLarge wrote.
type LargeStats struct {
	Bytes                               int64
	Files, Namespaces, Pods, Nodes, Old int
}

// WriteLarge writes into dir (the --dest-dir) a must-gather of about size
// bytes: KCS 6996487's cluster with 240 more worker nodes, 120 rendered
// configs no pool uses any more (MCO keeps every config it rendered), and
// namespaces until the size is reached, each as oc adm inspect writes it:
// 40 pods in core/pods.yaml and again in pods/<pod>/<pod>.yaml beside a log
// of each container, its events, ConfigMaps and Secrets. What a real
// must-gather's bulk is (pods, events, logs) is what siteforge must not
// hold in memory. The objects are the typed objects' marshalling, copied
// with their names changed, so a 2 GB must-gather is written in seconds.
func WriteLarge(dir string, size int64) (LargeStats, error) {
	c := kcs(8901, nil)
	for i := 0; i < 240; i++ {
		c.Workers = append(c.Workers, c.Region+string(rune('a'+i%3)))
	}
	m := c.mustGather()
	img, err := m.Write(dir)
	if err != nil {
		return LargeStats{}, err
	}
	st := LargeStats{Nodes: len(c.nodes())}
	w := &countingWriter{root: img, stats: &st}

	// old rendered configs, each with 72 KiB of base64 file contents
	// (real ones hold a few hundred)
	blob := strings.Repeat("QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=", 2<<10)
	for i := 0; i < 120; i++ {
		mc := UserConfig(fmt.Sprintf("rendered-worker-%032x", i), "", "3.4.0", "/etc/blob", blob)
		w.yaml(filepath.Join(platform.MustGatherClusterScopedDir, "machineconfiguration.openshift.io", "machineconfigs", mc.Name+".yaml"), mc)
		st.Old++
	}

	pod, err := sigsyaml.Marshal(largePod())
	if err != nil {
		return st, err
	}
	event, err := sigsyaml.Marshal(&corev1.Event{TypeMeta: typeMeta("v1", "Event"), ObjectMeta: meta("app-0.17f2", "NS", nil),
		InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: "NS", Name: "app-0"}, Reason: "BackOff",
		Message: "Back-off restarting failed container app in pod app-0_NS(" + string(uid("app")) + ")", Type: corev1.EventTypeWarning,
		Count: 12, FirstTimestamp: installed, LastTimestamp: gathered, Source: corev1.EventSource{Component: "kubelet", Host: "ip-10-0-130-40.ec2.internal"}})
	if err != nil {
		return st, err
	}
	cm, err := sigsyaml.Marshal(&corev1.ConfigMap{TypeMeta: typeMeta("v1", "ConfigMap"), ObjectMeta: meta("app-config-0", "NS", nil),
		Data: map[string]string{"application.properties": strings.Repeat("key.value=some-setting-of-the-application\n", 200)}})
	if err != nil {
		return st, err
	}
	logLine := "2026-03-09T16:39:58.123456Z INFO handled request GET /api/v1/items status=200 duration=12ms\n"
	for ns := 0; st.Bytes < size; ns++ {
		name := fmt.Sprintf("app-%04d", ns)
		nsDir := filepath.Join(platform.MustGatherNamespacesDir, name)
		var pods, events, cms bytes.Buffer
		for p := 0; p < 40; p++ {
			podName := fmt.Sprintf("app-%d-7d9c5b8f4-%05d", p, ns)
			one := bytes.ReplaceAll(bytes.ReplaceAll(pod, []byte("POD"), []byte(podName)), []byte("NS"), []byte(name))
			pods.WriteString("- " + strings.ReplaceAll(strings.TrimSuffix(string(one), "\n"), "\n", "\n  ") + "\n")
			w.file(filepath.Join(nsDir, platform.MustGatherPodsDir, podName, podName+".yaml"), one)
			w.file(filepath.Join(nsDir, platform.MustGatherPodsDir, podName, "app", "app", "logs", "current.log"), []byte(strings.Repeat(logLine, 1200)))
			st.Pods++
		}
		for e := 0; e < 400; e++ {
			one := bytes.ReplaceAll(bytes.ReplaceAll(event, []byte("app-0.17f2"), []byte(fmt.Sprintf("app-%d.%x", e%40, e))), []byte("NS"), []byte(name))
			events.WriteString("- " + strings.ReplaceAll(strings.TrimSuffix(string(one), "\n"), "\n", "\n  ") + "\n")
		}
		for i := 0; i < 20; i++ {
			one := bytes.ReplaceAll(bytes.ReplaceAll(cm, []byte("app-config-0"), []byte(fmt.Sprintf("app-config-%d", i))), []byte("NS"), []byte(name))
			cms.WriteString("- " + strings.ReplaceAll(strings.TrimSuffix(string(one), "\n"), "\n", "\n  ") + "\n")
		}
		list := func(items bytes.Buffer) []byte {
			return append(append([]byte("apiVersion: v1\nitems:\n"), items.Bytes()...), "kind: List\nmetadata:\n  resourceVersion: \"\"\n"...)
		}
		w.file(filepath.Join(nsDir, "core", "pods.yaml"), list(pods))
		w.file(filepath.Join(nsDir, "core", "events.yaml"), list(events))
		w.file(filepath.Join(nsDir, "core", "configmaps.yaml"), list(cms))
		w.file(filepath.Join(nsDir, name+".yaml"), []byte("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: "+name+"\n"))
		st.Namespaces++
		if w.err != nil {
			return st, w.err
		}
	}
	return st, w.err
}

// largePod is an application pod as a cluster holds it.
func largePod() *corev1.Pod {
	p := &corev1.Pod{TypeMeta: typeMeta("v1", "Pod"), ObjectMeta: meta("POD", "NS", map[string]string{"app": "app", "pod-template-hash": "7d9c5b8f4"}),
		Spec: corev1.PodSpec{NodeName: "ip-10-0-130-40.ec2.internal", ServiceAccountName: "default",
			Containers: []corev1.Container{{Name: "app", Image: "quay.io/example/app@sha256:" + strings.Repeat("ab", 32),
				Env: []corev1.EnvVar{{Name: "MODE", Value: "production"}, {Name: "LOG_LEVEL", Value: "info"}}}}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, PodIP: "10.129.2.14", HostIP: "10.0.130.40", StartTime: &installed,
			ContainerStatuses: []corev1.ContainerStatus{{Name: "app", Ready: true, Image: "quay.io/example/app@sha256:" + strings.Repeat("ab", 32),
				State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: installed}}}}}}
	return p
}

type countingWriter struct {
	root  string
	stats *LargeStats
	err   error
}

func (w *countingWriter) file(rel string, data []byte) {
	if w.err != nil {
		return
	}
	p := filepath.Join(w.root, rel)
	if w.err = os.MkdirAll(filepath.Dir(p), 0o755); w.err == nil {
		w.err = os.WriteFile(p, data, 0o644)
	}
	w.stats.Bytes += int64(len(data))
	w.stats.Files++
}

func (w *countingWriter) yaml(rel string, obj any) {
	data, err := sigsyaml.Marshal(obj)
	if err != nil && w.err == nil {
		w.err = err
	}
	w.file(rel, data)
}
