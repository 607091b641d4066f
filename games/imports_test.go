package games_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImportsPointDownwards checks the design's rule that games and the
// packages below it import nothing above them: no package of
// games/... depends on the engine, the tournaments, the tuners, the run
// store, the reports or the commands (tests excepted: a game's tests may
// search with the engine).
func TestImportsPointDownwards(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not installed")
	}
	const module = "github.com/gametune/gametune"
	out, err := exec.Command(goCmd, "list", "-deps", module+"/games/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	above := []string{"engine", "tournament", "population", "results", "reports", "cmd"}
	for _, dep := range strings.Fields(string(out)) {
		for _, a := range above {
			if dep == module+"/"+a || strings.HasPrefix(dep, module+"/"+a+"/") {
				t.Errorf("games/... depends on %s; games import nothing above them (see the design's import rules)", dep)
			}
		}
	}
}
