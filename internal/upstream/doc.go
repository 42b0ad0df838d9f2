// Package upstream holds one minimal typed definition of each upstream API
// object siteforge writes or reads that has no Go module it can use: the
// siteconfig operator's ClusterInstance (siteconfig.go), the ZTP SiteConfig v1
// (siteconfigv1.go), the installer's install-config (installconfig.go) and
// agent-config (agentconfig.go), and ACM's Policy, ConfigurationPolicy,
// Placement, PlacementBinding, ManagedClusterSetBinding and PolicyGenerator
// configuration (acm.go), and OLM's CatalogSource (olm.go).
//
// Each struct is the union of the fields the generators set and the readers
// (internal/manifests) and rules read, named and tagged exactly as the
// upstream type it mirrors, which each file cites. The generators write these
// types, internal/manifests decodes into them, the rules check them: a second
// struct with the same json tags elsewhere is a bug (TestOneTypePerObject).
//
// The package imports nothing of siteforge; it sits beside internal/site,
// below the generators and internal/manifests.
package upstream
