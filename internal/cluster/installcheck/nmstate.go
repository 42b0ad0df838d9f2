package installcheck

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/suggest"
)

// The NMState checks: a host's network config and the interface names it
// uses.

var predictable = regexp.MustCompile(platform.PredictableNICName)

// nmstate checks a host's NMState config: a mapping whose interfaces are a
// list of mappings with a name, and whose ethernet interfaces,
// bond and bridge ports, VLAN base interfaces and route next-hop interfaces
// are NICs of the host (its MAC-to-name mapping), interfaces the config
// defines, or physical names the assisted service accepts unmapped
// (openshift/assisted-service pkg/staticnetworkconfig/generator.go
// validateInterfaceNamesExistenceYAML: "interface name not found in networks
// configuration", "mac-interface mapping for interface %s is missing and not
// a physical interface"; platform.PredictableNICName).
func (c *checker) nmstate(h *Host) {
	if h.NetworkConfig == nil {
		return
	}
	key := h.NetworkConfigKey
	cfg, ok := h.NetworkConfig.(map[string]any)
	if !ok {
		c.add(CheckNMState, key, nil,
			fmt.Sprintf("networkConfig of node %s is not a mapping: it is an NMState document (interfaces, dns-resolver, routes)", h.Name),
			"write networkConfig as NMState: {interfaces: [{name: ..., type: ethernet, state: up, ...}], ...}")
		return
	}
	nics := map[string]bool{}
	for _, in := range h.Interfaces {
		if in.Name.V != "" {
			nics[in.Name.V] = true
		}
	}
	for _, n := range h.NICNames {
		nics[n] = true
	}
	nicList := slices.Sorted(func(yield func(string) bool) {
		for n := range nics {
			if !yield(n) {
				return
			}
		}
	})
	nicText := "none listed"
	if len(nicList) > 0 {
		nicText = strings.Join(nicList, ", ")
	}
	rawIfaces, has := cfg["interfaces"]
	var ifaces []any
	if has && rawIfaces != nil {
		if ifaces, ok = rawIfaces.([]any); !ok {
			c.add(CheckNMState, key, []string{"interfaces"},
				fmt.Sprintf("networkConfig.interfaces of node %s is not a list", h.Name),
				"write interfaces as a list: [{name: eno1, type: ethernet, ...}]")
			return
		}
	}
	defined := map[string]bool{}
	macIdentified := map[string]bool{}
	type entry struct {
		i    int
		m    map[string]any
		name string
	}
	var entries []entry
	for i, raw := range ifaces {
		sub := []string{"interfaces", strconv.Itoa(i)}
		m, ok := raw.(map[string]any)
		if !ok {
			c.add(CheckNMState, key, sub,
				fmt.Sprintf("networkConfig.interfaces[%d] of node %s is not a mapping", i, h.Name),
				"write each interface as a mapping: {name: eno1, type: ethernet, state: up}")
			continue
		}
		name, _ := m["name"].(string)
		if name == "" {
			c.add(CheckNMState, key, sub,
				fmt.Sprintf("networkConfig.interfaces[%d] of node %s has no name: the assisted service refuses it (interface name not found in networks configuration)", i, h.Name),
				"name the interface: name: eno1")
			continue
		}
		defined[name] = true
		if id, _ := m["identifier"].(string); id == "mac-address" {
			macIdentified[name] = true
		}
		entries = append(entries, entry{i, m, name})
	}
	// A name the host has: a mapped NIC, an interface the config defines,
	// or (for a physical NIC) a predictable name the assisted service
	// accepts without mapping.
	known := func(n string) bool { return nics[n] || defined[n] || predictable.MatchString(n) }
	// refused: the assisted service's own refusal, for the ethernet
	// interfaces and bond "port" entries it checks
	// (validateInterfaceNamesExistenceYAML); the other references (bond
	// "ports"/"slaves", VLAN base interfaces, bridge ports, route next hops)
	// name an interface the host does not have, which NetworkManager cannot
	// bring up.
	missingWhy := func(what, n string, refused bool) string {
		why := "the host has no such interface"
		if refused {
			why = fmt.Sprintf("the assisted service refuses it (mac-interface mapping for interface %s is missing and not a physical interface)", n)
		}
		return fmt.Sprintf("%s %s in node %s's networkConfig is not one of its NICs (%s) nor an interface the config defines, and not a physical NIC name: %s", what, n, h.Name, nicText, why)
	}
	// names: what a reference may name, for the hint's "did you mean"
	names := slices.Clone(nicList)
	for _, e := range entries {
		if !nics[e.name] && !slices.Contains(names, e.name) {
			names = append(names, e.name)
		}
	}
	missingAs := func(sub []string, what, n string, refused bool) {
		c.add(CheckNMState, key, sub, missingWhy(what, n, refused),
			fmt.Sprintf("%s; or add {name: %s, macAddress: ...} to the node's interfaces",
				suggest.Hint(n, slices.DeleteFunc(slices.Clone(names), func(x string) bool { return x == n }), "interfaces of node "+h.Name), n))
	}
	missing := func(sub []string, what, n string) { missingAs(sub, what, n, false) }
	for _, e := range entries {
		sub := []string{"interfaces", strconv.Itoa(e.i)}
		if t, _ := e.m["type"].(string); h.BootNIC.V != "" && e.name == h.BootNIC.V && t != "" && t != "ethernet" && t != "802-3-ethernet" {
			// assisted-service pkg/staticnetworkconfig/generator.go
			// injectNMPolicyCaptures finds the NIC by the mapped MAC and
			// renames the interface to the NIC's name: a bond or VLAN
			// mapped to its own port's MAC breaks static networking.
			c.add(CheckNMState, h.BootNIC.Key, nil,
				fmt.Sprintf("node %s lists no interfaces, so its boot MAC is mapped to %s, but its networkConfig makes %s a %s, not a NIC: the installer would rename the %s after the NIC that has the MAC, and static networking breaks", h.Name, e.name, e.name, t, t),
				fmt.Sprintf("list the node's NICs with their MACs: interfaces: [{name: <NIC, e.g. a port of %s>, macAddress: ...}, ...]", e.name))
		}
		switch t, _ := e.m["type"].(string); t {
		case "ethernet", "802-3-ethernet":
			if !nics[e.name] && !macIdentified[e.name] && !predictable.MatchString(e.name) {
				missingAs(append(sub, "name"), "ethernet interface", e.name, true)
			}
		case "bond":
			la, _ := e.m["link-aggregation"].(map[string]any)
			for _, field := range []string{"port", "ports", "slaves"} {
				ports, _ := la[field].([]any)
				for j, p := range ports {
					if n, _ := p.(string); n != "" && !nics[n] && !macIdentified[n] && !predictable.MatchString(n) {
						missingAs(append(sub, "link-aggregation", field, strconv.Itoa(j)), "bond port", n, field == "port")
					}
				}
			}
		case "vlan":
			v, _ := e.m["vlan"].(map[string]any)
			if n, _ := v["base-iface"].(string); n != "" && !known(n) {
				missing(append(sub, "vlan", "base-iface"), "VLAN base interface", n)
			}
		case "linux-bridge":
			br, _ := e.m["bridge"].(map[string]any)
			ports, _ := br["port"].([]any)
			for j, p := range ports {
				pm, _ := p.(map[string]any)
				if n, _ := pm["name"].(string); n != "" && !known(n) {
					missing(append(sub, "bridge", "port", strconv.Itoa(j), "name"), "bridge port", n)
				}
			}
		}
	}
	routes, _ := cfg["routes"].(map[string]any)
	rc, _ := routes["config"].([]any)
	for k, r := range rc {
		rm, _ := r.(map[string]any)
		if st, _ := rm["state"].(string); st == "absent" {
			continue
		}
		if n, _ := rm["next-hop-interface"].(string); n != "" && !known(n) {
			missing([]string{"routes", "config", strconv.Itoa(k), "next-hop-interface"}, "route next-hop interface", n)
		}
	}
}
