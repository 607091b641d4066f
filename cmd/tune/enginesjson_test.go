package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// enginesJSON is cutechess's engines.json as its GUI writes it
// (QJsonDocument, indented, keys sorted): alpha runs ./testengine in its
// working directory with an argument, beta an absolute command with
// quoted arguments and no working directory, gamma speaks xboard.
const enginesJSON = `[
    {
        "command": "./testengine -log alpha.log",
        "name": "alpha",
        "options": [
            {
                "alias": "",
                "default": 16,
                "max": 64,
                "min": 1,
                "name": "Hash",
                "type": "spin",
                "value": 8
            }
        ],
        "protocol": "uci",
        "stderrFile": "",
        "workingDirectory": %q
    },
    {
        "command": "\"%s\" \"-log\" \"%s\"",
        "name": "beta",
        "options": [
            {
                "alias": "",
                "default": 16,
                "max": 64,
                "min": 1,
                "name": "Hash",
                "type": "spin",
                "value": 32
            }
        ],
        "protocol": "uci",
        "stderrFile": "",
        "whitepov": false,
        "workingDirectory": ""
    },
    {
        "command": "sloppy",
        "initStrings": ["memory 64"],
        "name": "gamma",
        "protocol": "xboard",
        "stderrFile": "",
        "workingDirectory": ""
    }
]
`

// writeEnginesJSON builds the test engine into a working directory and
// writes engines.json beside it; it returns the file, the working
// directory and the engine.
func writeEnginesJSON(t *testing.T) (file, work, engine string) {
	t.Helper()
	dir := t.TempDir()
	work = filepath.Join(dir, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	engine = filepath.Join(work, "testengine")
	if out, err := exec.Command("go", "build", "-o", engine, "../../tournament/external/internal/testengine").CombinedOutput(); err != nil {
		t.Fatalf("building the test engine: %v\n%s", err, out)
	}
	file = filepath.Join(dir, "engines.json")
	data := fmt.Sprintf(enginesJSON, work, engine, filepath.Join(dir, "beta.log"))
	if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return file, work, engine
}

// commandLog is what the test engine received, read from its -log file.
func commandLog(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the engine's command log: %v", err)
	}
	return string(data)
}

// TestEnginesJSONMatch (issue 29): cutechess's engines.json read by
// --engines plays a real match: alpha in its working directory with its
// argument (its log lands there), beta from a quoted absolute command,
// each with its own Hash, which beats --each's; --each's clock reaches
// both. Then an engine's own depth= beats --each's tc=, while --each's
// option reaches it.
func TestEnginesJSONMatch(t *testing.T) {
	if testing.Short() {
		t.Skip("builds tune and an engine and plays two matches: skipped with -short")
	}
	bin := buildTune(t)
	file, work, engine := writeEnginesJSON(t)
	dir := filepath.Dir(file)
	match := func(a, b string) string {
		t.Helper()
		args := []string{"match", "--game", "chess", "--engines", file, "--a", a, "--b", b, "--each", "tc=10+0.1",
			"--each", "option.Hash=16", "--pairs", "1", "--max-plies", "6", "--quiet", "--json"}
		out, err := exec.Command(bin, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("tune %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	out := match("alpha", "beta")
	if !strings.Contains(out, `"a": "alpha"`) || !strings.Contains(out, `"b": "beta"`) {
		t.Errorf("the match's players:\n%s", out)
	}
	alpha, beta := commandLog(t, filepath.Join(work, "alpha.log")), commandLog(t, filepath.Join(dir, "beta.log"))
	for _, c := range []struct{ name, log, hash string }{{"alpha", alpha, "8"}, {"beta", beta, "32"}} {
		if !strings.Contains(c.log, "setoption name Hash value "+c.hash+"\n") || strings.Contains(c.log, "value 16") {
			t.Errorf("%s: want its own Hash %s, not --each's 16:\n%s", c.name, c.hash, c.log)
		}
		if !strings.Contains(c.log, "go wtime 10000 btime 10000 winc 100 binc 100") {
			t.Errorf("%s: --each's tc=10+0.1 did not reach it:\n%s", c.name, c.log)
		}
	}
	own := filepath.Join(dir, "own.log")
	match("beta", "cmd="+engine+",name=own,depth=1,arg=-log,arg="+own)
	if log := commandLog(t, own); !strings.Contains(log, "go depth 1\n") || strings.Contains(log, "wtime") || !strings.Contains(log, "setoption name Hash value 16\n") {
		t.Errorf("own: want its own depth=1 and --each's Hash 16:\n%s", log)
	}
}

// TestEnginesJSONRefusals (issues 29, 58): an xboard engine of
// engines.json without a limit is refused, saying what it needs, and one
// whose command is missing names it; --each with no external
// player, and with a key it cannot set, are refused; all with exit 2 and
// before any game.
func TestEnginesJSONRefusals(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "engines.json")
	if err := os.WriteFile(file, []byte(fmt.Sprintf(enginesJSON, dir, "/nonexistent", "x.log")), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--engines", file, "--a", "gamma"}, `an xboard engine needs depth=, movetime=, nodes= or tc=`},
		{[]string{"--engines", file, "--a", "gamma", "--each", "depth=1"}, `cmd=sloppy`},
		{[]string{"--each", "tc=10+0.1"}, "--each sets external engines, and no player is one"},
		{[]string{"--each", "cmd=x", "--a", "cmd=x,depth=1"}, "--each: engine spec: each \"cmd=x\": cmd= belongs to each engine"},
		{[]string{"--engines", filepath.Join(dir, "none.json")}, "--engines: open"},
	} {
		args := append([]string{"match", "--game", "chess", "--b", "default", "--pairs", "1", "--depth", "1"}, c.args...)
		code, _, errOut := tune(t, "", args...)
		if code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, %q; want exit 2 naming %q", c.args, code, errOut, c.want)
		}
	}
}
