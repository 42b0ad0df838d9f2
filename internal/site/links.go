package site

import (
	"fmt"
	"sort"

	"cuelang.org/go/cue"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
)

// Placements whose pools sit in an AWS edge zone.
const (
	PlacementAWSLocalZone  = "aws-local-zone"
	PlacementAWSWavelength = "aws-wavelength"
)

// Link is one hop that overlay traffic crosses: a pool's uplink, or a path
// between two pools.
type Link struct {
	// Pools is the pool of an uplink, or the two pools a path joins (sorted).
	Pools []string
	MTU   int
	// Origin says where the number comes from: the site field, or the
	// platform default and its source.
	Origin string
	// Pos is where the user wrote it; zero for platform defaults.
	Pos diag.Position
}

// IsPath reports whether the link joins two pools (else it is an uplink).
func (l Link) IsPath() bool { return len(l.Pools) == 2 }

func (l Link) String() string {
	if l.IsPath() {
		return fmt.Sprintf("path %s <-> %s", l.Pools[0], l.Pools[1])
	}
	return fmt.Sprintf("uplink of pool %s", l.Pools[0])
}

// Links returns every link overlay traffic crosses: each pool's uplink, each
// declared path, and the platform's default path MTUs between pools where the
// site declares none (an AWS Local Zone or Wavelength Zone pool reaches every
// other pool through a 1300-byte path). Sorted: uplinks by pool, then paths.
func (s *Site) Links() []Link {
	var links []Link
	for _, name := range s.PoolNames() {
		links = append(links, Link{
			Pools:  []string{name},
			MTU:    s.Pools[name].UplinkMTU,
			Origin: "site: pools." + name + ".uplinkMTU",
			Pos:    s.Positions.Of(cue.MakePath(cue.Str("pools"), cue.Str(name), cue.Str("uplinkMTU")).String()),
		})
	}
	declared := map[[2]string]bool{}
	var paths []Link
	for i, p := range s.Paths {
		key := pairKey(p.Between[0], p.Between[1])
		declared[key] = true
		paths = append(paths, Link{
			Pools:  []string{key[0], key[1]},
			MTU:    p.MTU,
			Origin: fmt.Sprintf("site: paths[%d]", i),
			Pos:    s.Positions.Of(cue.MakePath(cue.Str("paths"), cue.Index(i), cue.Str("mtu")).String()),
		})
	}
	if s.Cluster.Platform == "aws" {
		names := s.PoolNames()
		for i, a := range names {
			for _, b := range names[i+1:] {
				if !isAWSEdge(s.Pools[a]) && !isAWSEdge(s.Pools[b]) {
					continue
				}
				key := pairKey(a, b)
				if declared[key] {
					continue
				}
				paths = append(paths, Link{
					Pools:  []string{key[0], key[1]},
					MTU:    platform.AWSEdgeZoneToRegionMTU,
					Origin: "platform default: AWS Local Zone / Wavelength Zone <-> Region path MTU (AWS Local Zones docs)",
				})
			}
		}
	}
	sort.SliceStable(paths, func(i, j int) bool {
		if paths[i].Pools[0] != paths[j].Pools[0] {
			return paths[i].Pools[0] < paths[j].Pools[0]
		}
		return paths[i].Pools[1] < paths[j].Pools[1]
	})
	return append(links, paths...)
}

func isAWSEdge(p Pool) bool {
	return p.Placement == PlacementAWSLocalZone || p.Placement == PlacementAWSWavelength
}

func pairKey(a, b string) [2]string {
	if b < a {
		a, b = b, a
	}
	return [2]string{a, b}
}
