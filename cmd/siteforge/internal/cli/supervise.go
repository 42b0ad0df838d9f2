package cli

import (
	"github.com/siteforge/siteforge/cmd/siteforge/internal/guard"
	"github.com/siteforge/siteforge/internal/output"
)

// The supervisor (guard.Supervise) recovers what a crashed worker staged
// the way the next run would: render's stages are rolled back, temporary
// folders removed.
func init() { guard.SetRecover(output.RecoverStale) }
