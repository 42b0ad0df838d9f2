// Package butane is the one place siteforge authors MachineConfigs. A
// MachineConfig is written as Butane (variant openshift, at the highest
// stable spec version not above the cluster's OpenShift version, see
// SpecVersion) and translated in-process with the Butane library; callers
// write both the .bu and the MachineConfig.
//
// Callers pass a Config: the MachineConfig's name, its pool (the role
// label) and a Butane body, the part of a Butane document below metadata.
// Users write the body as text (machineConfigs.<name>.butane); generators
// build it in Go with Body (files and systemd units), so they never quote
// YAML themselves. Build composes the document (variant, version, metadata,
// then the body verbatim), translates it and returns a Result; Butane's
// errors come back as a diag.List error and its warnings in
// Result.Warnings, for generators.Context.Warn (they fail under --strict,
// as with `butane --strict`). One deliberate difference from Butane: an
// unused key, a warning for Butane, is an error here, because a misspelt
// field silently drops its contents from the MachineConfig.
//
// # How precise positions are
//
// Butane reports a problem at a line and column of the .bu. Build maps it
// back to the user's input through Config.Origin:
//
//   - A problem in the lines siteforge writes (variant, version, metadata),
//     or in a generated body (Origin.Snippet false), is reported at
//     Origin.Pos.
//   - A body of one line is reported at Origin.Pos, the start of the string:
//     a quoted one-line string and a one-line block cannot be told apart.
//   - A body of several lines is taken to be written as a block (a YAML
//     literal block scalar `|`, `|-`, `|+`, or a CUE multi-line string
//     `"""`): line n of the body is reported n lines below Origin.Pos, which
//     is exact. The column is Butane's column plus a guessed indentation
//     (the conventional layout: YAML text two spaces deeper than the
//     `butane:` key, CUE text one tab deeper, as cue fmt writes it); with
//     another layout the column is off by the difference, the line is not.
//   - Lines are wrong for multi-line bodies not written as blocks: a quoted
//     YAML or CUE string with \n escapes, a folded YAML scalar (`>`) whose
//     lines fold, a string built by CUE interpolation or concatenation. A
//     JSON site file is recognised by its extension and reported at
//     Origin.Pos.
//   - Butane points at the key or value it complains about. For problems it
//     finds in the generated Ignition config and cannot trace back (a file
//     without a path), Build points at the nearest enclosing node of the
//     .bu, usually the list entry.
//
// Each diagnostic also names the Butane path (storage.files.0.path), so the
// place is clear even where the column is not.
package butane
