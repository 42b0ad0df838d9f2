package mirroring

import (
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"maps"
	"slices"
	"strings"

	configv1 "github.com/openshift/api/config/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
)

// imageConfig returns the image.config.openshift.io "cluster" object when the site sets any of
// insecure/blocked/allowed registries or an additional trusted CA, else nil. Only the fields
// the site sets are rendered (see imageConfigObject).
func imageConfig(s *site.Site) (*configv1.Image, []diag.Position) {
	m := s.Mirroring
	if len(m.InsecureRegistries) == 0 && len(m.BlockedRegistries) == 0 && len(m.AllowedRegistries) == 0 && m.AdditionalTrustedCA == nil {
		return nil, nil
	}
	img := &configv1.Image{
		TypeMeta:   metav1.TypeMeta{APIVersion: configv1.GroupVersion.String(), Kind: "Image"},
		ObjectMeta: metav1.ObjectMeta{Name: platform.ConfigSingletonName},
		Spec: configv1.ImageSpec{RegistrySources: configv1.RegistrySources{
			InsecureRegistries: append([]string(nil), m.InsecureRegistries...),
			BlockedRegistries:  append([]string(nil), m.BlockedRegistries...),
			AllowedRegistries:  append([]string(nil), m.AllowedRegistries...),
		}},
	}
	var origin []diag.Position
	for path, set := range map[string]bool{
		"mirroring.insecureRegistries":  len(m.InsecureRegistries) > 0,
		"mirroring.blockedRegistries":   len(m.BlockedRegistries) > 0,
		"mirroring.allowedRegistries":   len(m.AllowedRegistries) > 0,
		"mirroring.additionalTrustedCA": m.AdditionalTrustedCA != nil,
	} {
		if set {
			origin = append(origin, s.Positions.Of(path))
		}
	}
	if m.AdditionalTrustedCA != nil {
		img.Spec.AdditionalTrustedCA = configv1.ConfigMapNameReference{Name: m.AdditionalTrustedCA.ConfigMap}
	}
	return img, sortPositions(diag.Unique(origin...))
}

// imageConfigObject is img as a map without the empty fields the typed struct always carries
// (additionalTrustedCA: {name: ""}, registrySources: {}, imageStreamImportMode: ""): applied
// as written, they would clear what the cluster already has there.
func imageConfigObject(img *configv1.Image) (map[string]any, error) {
	m, err := generators.ToMap(img)
	if err != nil {
		return nil, err
	}
	spec, _ := m["spec"].(map[string]any)
	if ca, _ := spec["additionalTrustedCA"].(map[string]any); ca != nil && ca["name"] == "" {
		delete(spec, "additionalTrustedCA")
	}
	if rs, _ := spec["registrySources"].(map[string]any); len(rs) == 0 {
		delete(spec, "registrySources")
	}
	if spec["imageStreamImportMode"] == "" {
		delete(spec, "imageStreamImportMode")
	}
	return m, nil
}

// trustedCAConfigMap is the ConfigMap of mirroring.additionalTrustedCA when the site gives its
// certificates (nil when it does not: the ConfigMap is kept outside the site): one key per
// registry host[:port] with ":" written "..", in openshift-config, where image.config
// spec.additionalTrustedCA looks (api config/v1 types_image.go). MCO writes each key to
// /etc/docker/certs.d/<host[:port]>/ca.crt on every node (platform.AdditionalTrustedCAKey).
// A value that is not PEM certificates is refused at its key.
func trustedCAConfigMap(s *site.Site) (*namedObject, diag.List) {
	ca := s.Mirroring.AdditionalTrustedCA
	if ca == nil || len(ca.Certificates) == 0 {
		return nil, nil
	}
	data := map[string]string{}
	var diags diag.List
	var origin []diag.Position
	for _, host := range slices.Sorted(maps.Keys(ca.Certificates)) {
		path := fieldPath("mirroring", "additionalTrustedCA", "certificates", host)
		origin = append(origin, s.Positions.Of(path))
		pemData := ca.Certificates[host]
		if err := checkCertificates([]byte(pemData)); err != nil {
			diags = append(diags, diag.Diagnostic{Pos: s.Positions.Of(path), Path: path,
				Message: fmt.Sprintf("the CA for %s is not PEM certificates: %v", host, err),
				Hint:    "paste the CA certificate(s) in PEM: -----BEGIN CERTIFICATE----- ... -----END CERTIFICATE-----"})
			continue
		}
		data[platform.AdditionalTrustedCAKey(host)] = pemData
	}
	if len(diags) > 0 {
		return nil, diags
	}
	cm := &corev1.ConfigMap{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{Name: ca.ConfigMap, Namespace: platform.AdditionalTrustedCANamespace},
		Data:       data,
	}
	return &namedObject{"ConfigMap", ca.ConfigMap, cm, origin}, nil
}

// checkCertificates reports what in data is not a sequence of PEM certificates (at least one).
func checkCertificates(data []byte) error {
	n := 0
	for {
		var block *pem.Block
		block, data = pem.Decode(data)
		if block == nil {
			break
		}
		if block.Type != "CERTIFICATE" {
			return fmt.Errorf("a PEM block of type %q", block.Type)
		}
		if _, err := x509.ParseCertificate(block.Bytes); err != nil {
			return fmt.Errorf("certificate %d: %w", n+1, err)
		}
		n++
	}
	if n == 0 {
		return fmt.Errorf("no PEM certificate")
	}
	if rest := strings.TrimSpace(string(data)); rest != "" {
		return fmt.Errorf("text after the last certificate")
	}
	return nil
}
