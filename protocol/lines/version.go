package lines

import "runtime/debug"

// ProgramName is the program's name in the protocols' id and name answers.
const ProgramName = "gametune"

// ProgramVersion is the version of the running program, as the build
// recorded it: the module's version ("v1.2.0", or a pseudo-version of the
// commit when built from a checkout, "+dirty" with local changes), else
// the commit ("devel-" and 12 hex digits), else "devel".
func ProgramVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	revision, dirty := "", ""
	for _, s := range info.Settings {
		switch {
		case s.Key == "vcs.revision":
			revision = s.Value
		case s.Key == "vcs.modified" && s.Value == "true":
			dirty = "+dirty"
		}
	}
	if revision == "" {
		return "devel"
	}
	return "devel-" + revision[:min(12, len(revision))] + dirty
}
