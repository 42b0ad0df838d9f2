//go:build !linux

package guard

// boundAddressSpace does nothing outside Linux, where siteforge runs
// unsupervised (supervise_other.go): an allocation refused there would end
// the run with the runtime's own message.
func boundAddressSpace() func() { return func() {} }
