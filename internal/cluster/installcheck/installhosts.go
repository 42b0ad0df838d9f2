package installcheck

import "fmt"

// installHostsCount: an installer-provisioned bare-metal install needs a
// host of platform.baremetal.hosts for every control-plane and compute
// replica; a host without a role fills the control plane first ("not
// enough hosts found (%v) to support all the configured ControlPlane
// replicas (%v)": openshift/installer pkg/types/baremetal/validation
// platform.go validateHostsCount, from ValidateHosts, which ValidatePlatform
// runs when the install is not agent-based and the MachineAPI capability is
// on). Arbiter hosts count for neither pool, and hosts without a role are
// given to the workers after the control plane, so no shortage is reported
// that the installer would not report.
func (c *checker) installHostsCount() {
	f := c.f
	if f.Method != MethodOther || !f.MachineAPI || len(f.InstallHosts) == 0 || f.ControlPlane < 0 {
		return
	}
	masters, workers := 0, 0
	for _, h := range f.InstallHosts {
		switch h.Role {
		case RoleMaster:
			masters++
		case RoleWorker:
			workers++
		case RoleArbiter:
		default:
			if masters < f.ControlPlane {
				masters++
			} else {
				workers++
			}
		}
	}
	switch {
	case masters < f.ControlPlane:
		c.add(CheckControlPlane, f.InstallHostsKey, nil,
			fmt.Sprintf("%d control-plane replicas but platform.baremetal.hosts has %d host(s) for them: the installer refuses it (not enough hosts found (%d) to support all the configured ControlPlane replicas (%d))", f.ControlPlane, masters, masters, f.ControlPlane),
			"list a host (name, role: master, bmc, bootMACAddress) for every control-plane replica")
	case f.Workers > 0 && workers < f.Workers:
		c.add(CheckControlPlane, f.InstallHostsKey, nil,
			fmt.Sprintf("%d compute replicas but platform.baremetal.hosts has %d host(s) for them: the installer refuses it (not enough hosts found (%d) to support all the configured Compute replicas (%d))", f.Workers, workers, workers, f.Workers),
			"list a host (name, role: worker, bmc, bootMACAddress) for every compute replica, or lower compute replicas")
	}
}
