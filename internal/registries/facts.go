package registries

import "go.podman.io/image/v5/pkg/sysregistriesv2"

// Values of [[registry.mirror]] pull-from-mirror. // c/image sysregistriesv2 MirrorByDigestOnly, MirrorByTagOnly, MirrorAll
const (
	PullFromMirrorDigestOnly = sysregistriesv2.MirrorByDigestOnly // written for IDMS and ICSP mirrors (4.13+)
	PullFromMirrorTagOnly    = sysregistriesv2.MirrorByTagOnly    // written for ITMS mirrors
	PullFromMirrorAll        = sysregistriesv2.MirrorAll          // never written by MCO
)
