package web

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gametune/gametune/results"
)

// newServer serves root through a real listener (the event streams need
// one) and closes both at the end of the test.
func newServer(t *testing.T, root string, o Options) (*Server, *httptest.Server) {
	t.Helper()
	s, err := New(root, o)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(func() {
		s.Close()
		ts.Close()
	})
	return s, ts
}

func get(t *testing.T, url string, header ...string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(body)
}

// damage makes two damaged runs in root: a database that is not one, and a
// run whose genomes have the wrong number of weights.
func damage(t *testing.T, root string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(root, "garbage"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "garbage", results.DBName), []byte(strings.Repeat("not a database ", 20)), 0o644); err != nil {
		t.Fatal(err)
	}
	r := makeRun(t, root, "short-weights", 5, 1, 4, 1)
	g := fixtureGeneration(1, 4, 3) // 3 weights for 4 features
	if err := r.RecordGeneration(g); err != nil {
		t.Fatal(err)
	}
}

// TestRoutes: every page and API route answers, with the right type and
// content, for a healthy run, next to damaged ones.
func TestRoutes(t *testing.T) {
	root := t.TempDir()
	makeRun(t, root, "alpha", 5, 3, 6, 4)
	makeRun(t, root, "empty", 5, 0, 6, 0)
	damage(t, root)
	_, ts := newServer(t, root, Options{})
	// alpha played 12 games of those its config plans.
	alphaProgress := fmt.Sprintf("12/%d games", fixtureConfig(5).ExpectedGames(fixtureEvaluator(t), 12, 0))
	cases := []struct {
		path, typ string
		code      int
		want      []string
	}{
		{"/", "text/html", 200, []string{`id="run-alpha"`, `href="/runs/alpha"`, "damaged", "garbage", "short-weights", alphaProgress, "&#43;20 [-29, &#43;69]"}},
		{"/?sort=elo&desc=1", "text/html", 200, []string{"best, Elo [95%] ▼"}},
		{"/runs/alpha", "text/html", 200, []string{`id="live"`, `data-events="/runs/alpha/events"`, `id="report"`, `id="best-weights"`, `id="plot-fitness"`, `id="last-games"`, `src="/live.js"`, "gen/2/3"}},
		{"/runs/alpha/", "text/html", 200, []string{`id="report"`}},
		{"/runs/empty", "text/html", 200, []string{`id="live"`, "No generation has finished yet", "game: tictactoe"}},
		{"/runs/garbage", "text/html", 200, []string{"damaged", "garbage/run.db is damaged or truncated"}},
		{"/runs/nothing", "text/plain", 404, []string{`no run "nothing"`}},
		{"/runs/alpha/plots/fitness.svg", "image/svg+xml", 200, []string{"<svg"}},
		{"/runs/alpha/plots/coefficients.png", "image/png", 200, []string{"PNG"}},
		{"/runs/alpha/plots/nothing.svg", "text/plain", 404, []string{"fitness"}},
		{"/runs/empty/plots/fitness.svg", "text/plain", 404, []string{"no finished generation"}},
		{"/runs/garbage/plots/fitness.svg", "text/plain", 409, []string{"damaged"}},
		{"/runs/alpha/games", "text/plain", 200, []string{"tictactoe | genome 3 | genome 4 | --------- | a1 b1 a2 b2 a3 | 1-0 | rule"}},
		{"/runs/alpha/games/gen/1/2", "text/plain", 200, []string{"genome 2 | genome 3"}},
		{"/runs/alpha/games/gen/9/9", "text/plain", 404, []string{"no game gen/9/9"}},
		{"/runs/alpha/games/gen/x/9", "text/plain", 400, nil},
		{"/api/runs", "application/json", 200, []string{`"id": "alpha"`, `"damaged": "results:`, `"elo": 20`, `"elo": null`}},
		{"/api/runs/alpha", "application/json", 200, []string{`"best_weights"`, `"open-mine"`, `"yardstick"`, `"/runs/alpha/plots/fitness.svg"`, `"last_games"`}},
		{"/api/runs/short-weights", "application/json", 200, []string{`"damaged"`, "for 4 features"}},
		{"/api/runs/nothing", "text/plain", 404, nil},
		{"/live.js", "text/javascript", 200, []string{"new EventSource"}},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			resp, body := get(t, ts.URL+c.path)
			if resp.StatusCode != c.code {
				t.Fatalf("status %d, want %d: %.300s", resp.StatusCode, c.code, body)
			}
			if typ := resp.Header.Get("Content-Type"); !strings.HasPrefix(typ, c.typ) {
				t.Errorf("Content-Type %q, want %q", typ, c.typ)
			}
			for _, w := range c.want {
				if !strings.Contains(body, w) {
					t.Errorf("body lacks %q: %s", w, body[max(0, len(body)-1500):])
				}
			}
			if strings.HasPrefix(c.typ, "text/html") {
				for _, banned := range []string{"https://", "<link", "<script>"} {
					if strings.Contains(strings.ReplaceAll(body, "http://www.w3.org", ""), banned) {
						t.Errorf("page fetches or runs something from elsewhere: %q", banned)
					}
				}
			}
		})
	}
	// Downloads are attachments named after the run and the game.
	resp, _ := get(t, ts.URL+"/runs/alpha/games/gen/1/2")
	if cd := resp.Header.Get("Content-Disposition"); cd != `attachment; filename="alpha-gen-1-2.txt"` {
		t.Errorf("Content-Disposition %q", cd)
	}
	// Nothing but GET and HEAD.
	for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodDelete} {
		req, _ := http.NewRequest(m, ts.URL+"/api/runs/alpha", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("%s: status %d, want 405", m, resp.StatusCode)
		}
	}
}

// TestRunsSorted: the list sorts by each column, damaged runs last.
func TestRunsSorted(t *testing.T) {
	root := t.TempDir()
	makeRun(t, root, "a", 5, 4, 4, 1) // Elo 30
	makeRun(t, root, "b", 5, 2, 4, 3) // Elo 10
	makeRun(t, root, "c", 5, 3, 4, 2) // Elo 20
	damage(t, root)
	s, _ := newServer(t, root, Options{})
	runs, err := s.Runs()
	if err != nil {
		t.Fatal(err)
	}
	order := func(key string, desc bool) string {
		sortRuns(runs, key, desc)
		var ids []string
		for _, r := range runs {
			ids = append(ids, r.ID)
		}
		return strings.Join(ids, " ")
	}
	for _, c := range []struct {
		key  string
		desc bool
		want string
	}{
		{"", false, "a b c garbage short-weights"},
		{"elo", true, "a c b garbage short-weights"},
		{"games", true, "b c a garbage short-weights"},
		{"progress", false, "a b c garbage short-weights"}, // 4, 6 and 6 games of the same plan
	} {
		if got := order(c.key, c.desc); got != c.want {
			t.Errorf("sort %q desc %v: %s, want %s", c.key, c.desc, got, c.want)
		}
	}
}

// TestToken: with a token, every route answers 401 without it, and serves
// with it (bearer header, or the cookie a ?token= visit sets).
func TestToken(t *testing.T) {
	root := t.TempDir()
	makeRun(t, root, "alpha", 5, 2, 4, 2)
	_, ts := newServer(t, root, Options{Token: "s3cret-token"})
	routes := []string{"/", "/runs/alpha", "/runs/alpha/plots/fitness.svg", "/runs/alpha/games", "/runs/alpha/games/gen/0/0",
		"/runs/alpha/events", "/api/runs", "/api/runs/alpha", "/api/runs/alpha/events", "/live.js", "/nothing"}
	for _, path := range routes {
		for _, h := range [][]string{nil, {"Authorization", "Bearer wrong"}, {"Authorization", "s3cret-token"}, {"Cookie", "gametune_token=wrong"}} {
			resp, _ := get(t, ts.URL+path, h...)
			if resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("%s with %v: status %d, want 401", path, h, resp.StatusCode)
			}
		}
		if path == "/runs/alpha/events" || path == "/api/runs/alpha/events" {
			continue // streams: checked below
		}
		resp, _ := get(t, ts.URL+path, "Authorization", "Bearer s3cret-token")
		if want := 200; path == "/nothing" {
			if resp.StatusCode != 404 {
				t.Errorf("%s with the token: %d, want 404", path, resp.StatusCode)
			}
		} else if resp.StatusCode != want {
			t.Errorf("%s with the token: %d, want 200", path, resp.StatusCode)
		}
	}
	resp, _ := get(t, ts.URL+"/runs/alpha?token=s3cret-token&x=1")
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/runs/alpha?x=1" {
		t.Fatalf("?token=: status %d, Location %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	cookie := resp.Cookies()
	if len(cookie) != 1 || !cookie[0].HttpOnly {
		t.Fatalf("?token= set cookies %v", cookie)
	}
	resp, _ = get(t, ts.URL+"/runs/alpha", "Cookie", cookie[0].Name+"="+cookie[0].Value)
	if resp.StatusCode != 200 {
		t.Errorf("with the cookie: %d", resp.StatusCode)
	}
	stream := openEvents(t, ts.URL+"/runs/alpha/events", "Authorization", "Bearer s3cret-token")
	if ev := stream.next(t, 10*time.Second); ev.name != "hello" {
		t.Errorf("the stream with a token begins with %q", ev.name)
	}
}

// event is one server-sent event.
type event struct {
	name string
	sum  Summary
	at   time.Time
}

// eventStream reads server-sent events in the background.
type eventStream struct {
	events chan event
}

func openEvents(t *testing.T, url string, header ...string) *eventStream {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("events: status %d, type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	s := &eventStream{events: make(chan event, 100)}
	go func() {
		defer close(s.events)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		var ev event
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				ev.name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &ev.sum)
			case line == "" && ev.name != "":
				ev.at = time.Now()
				s.events <- ev
				ev = event{}
			}
		}
	}()
	return s
}

// next returns the next event, or fails after within.
func (s *eventStream) next(t *testing.T, within time.Duration) event {
	t.Helper()
	select {
	case ev, ok := <-s.events:
		if !ok {
			t.Fatal("the event stream ended")
		}
		return ev
	case <-time.After(within):
		t.Fatalf("no event within %v", within)
	}
	return event{}
}

// until returns the first event named name, skipping others.
func (s *eventStream) until(t *testing.T, name string, within time.Duration) event {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		ev := s.next(t, time.Until(deadline))
		if ev.name == name {
			return ev
		}
	}
}

// TestEventsWhileWriting: a run written while it is served sends progress
// events for games and a generation event for each closed generation,
// within the poll interval; the run page then shows it.
func TestEventsWhileWriting(t *testing.T) {
	root := t.TempDir()
	r := makeRun(t, root, "live", 6, 2, 6, 2)
	const poll = 50 * time.Millisecond
	_, ts := newServer(t, root, Options{Poll: poll})
	stream := openEvents(t, ts.URL+"/runs/live/events")
	hello := stream.next(t, 10*time.Second)
	if hello.name != "hello" || hello.sum.Done != 2 || hello.sum.Status != "running" {
		t.Fatalf("first event %q %+v", hello.name, hello.sum)
	}
	if err := r.RecordGame(fixtureGame(2, 0)); err != nil {
		t.Fatal(err)
	}
	if ev := stream.until(t, "progress", 10*time.Second); ev.sum.Games != 5 {
		t.Errorf("progress event has %d games, want 5", ev.sum.Games)
	}
	var worst time.Duration
	for gen := 2; gen < 5; gen++ {
		written := time.Now()
		if err := r.RecordGeneration(fixtureGeneration(gen, 6, 4)); err != nil {
			t.Fatal(err)
		}
		ev := stream.until(t, "generation", 10*time.Second)
		if ev.sum.Done != gen+1 {
			t.Errorf("generation event says %d done, want %d", ev.sum.Done, gen+1)
		}
		worst = max(worst, ev.at.Sub(written))
		_, page := get(t, ts.URL+"/runs/live")
		if !strings.Contains(page, `<span id="live-done">`+string(rune('0'+gen+1))+`</span>`) {
			t.Errorf("the run page does not show generation %d", gen)
		}
	}
	t.Logf("generation event latency: %v at most (poll %v)", worst, poll)
	if worst > 10*poll+time.Second {
		t.Errorf("generation event latency %v for a poll of %v", worst, poll)
	}
	if err := r.SetStatus("done"); err != nil {
		t.Fatal(err)
	}
	if ev := stream.until(t, "status", 10*time.Second); ev.sum.Status != "done" {
		t.Errorf("status event says %q", ev.sum.Status)
	}
}

// TestBadInput: a missing folder, a file, an empty or world-readable
// token file are refused with what to do.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	if _, err := New(filepath.Join(dir, "missing"), Options{}); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("missing folder: %v", err)
	}
	file := filepath.Join(dir, "file")
	os.WriteFile(file, []byte("x"), 0o600)
	if _, err := New(file, Options{}); err == nil || !strings.Contains(err.Error(), "is a file") {
		t.Errorf("a file: %v", err)
	}
	for _, c := range []struct {
		content string
		mode    os.FileMode
		want    string
	}{
		{"", 0o600, "is empty"},
		{" \n", 0o600, "is empty"},
		{"tok", 0o644, "readable by everyone"},
		{"two words", 0o600, "one word"},
		{"good-token\n", 0o600, ""},
	} {
		path := filepath.Join(dir, "token")
		os.Remove(path)
		if err := os.WriteFile(path, []byte(c.content), c.mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(path, c.mode)
		tok, err := ReadToken(path)
		if c.want == "" {
			if err != nil || tok != "good-token" {
				t.Errorf("%q: %q, %v", c.content, tok, err)
			}
		} else if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q mode %v: %v, want %q", c.content, c.mode, err, c.want)
		}
	}
	if tok, err := ReadToken(""); tok != "" || err != nil {
		t.Errorf("no token file: %q, %v", tok, err)
	}
	for addr, want := range map[string]bool{"127.0.0.1:8080": true, "localhost:80": true, "[::1]:8080": true, "0.0.0.0:8080": false, ":8080": false, "192.168.1.4:8080": false} {
		if got, err := IsLoopback(addr); err != nil || got != want {
			t.Errorf("IsLoopback(%q) = %v, %v", addr, got, err)
		}
	}
	if _, err := IsLoopback("8080"); err == nil {
		t.Error("IsLoopback accepted a port alone")
	}
	if _, err := Listen("0.0.0.0:0", false, false); err == nil || !strings.Contains(err.Error(), "not a loopback address") {
		t.Errorf("Listen on every interface without a token: %v", err)
	}
	ln, err := Listen("127.0.0.1:0", false, false)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if _, err := Listen(ln.Addr().String(), true, false); err == nil || !strings.Contains(err.Error(), "in use by another program") {
		t.Errorf("Listen on a port in use: %v", err)
	}
	if _, _, err := Open(t.TempDir(), "0.0.0.0:0", Options{}, false); err == nil || !strings.Contains(err.Error(), "not a loopback address") {
		t.Errorf("Open on every interface without a token: %v", err)
	}
	if _, _, err := Open(filepath.Join(t.TempDir(), "none"), "127.0.0.1:0", Options{}, false); !errors.Is(err, ErrNoFolder) {
		t.Errorf("Open of no folder: %v", err)
	}
	s, ln2, err := Open(t.TempDir(), "0.0.0.0:0", Options{Token: "t"}, false)
	if err != nil {
		t.Fatal(err)
	}
	ln2.Close()
	s.Close()
}

// committedLater is a run store whose commits become visible when the test
// says: as a writer's do, after its WAL file has already changed. games
// is the count of such commits, shared by every open of the run.
type committedLater struct {
	RunReader
	mu    *sync.Mutex
	games *int
}

func (c *committedLater) Info() (results.Info, error) {
	in, err := c.RunReader.Info()
	c.mu.Lock()
	in.Games += *c.games
	c.mu.Unlock()
	return in, err
}

// TestCommitSeenAfterStamp: a commit that becomes visible to readers after
// its frames reached the WAL file (a writer appends to the WAL, fsyncs,
// then publishes the commit in the WAL index, the -shm file) is seen at
// the next look; and a run whose files, the index's header included, did
// not change is not opened again. A dashboard that went by the files'
// sizes and times alone missed such commits until the next one, and the
// last commit of a run for good. The store read is a real run's; the
// files looked at are crafted, as a writer leaves them between the two
// steps.
func TestCommitSeenAfterStamp(t *testing.T) {
	src := t.TempDir()
	makeRun(t, src, "live", 6, 2, 6, 2).Close()
	root := t.TempDir()
	dir := filepath.Join(root, "live")
	copyRun(t, filepath.Join(src, "live"), dir)
	wal, shm := filepath.Join(dir, "run.db-wal"), filepath.Join(dir, "run.db-shm")
	os.WriteFile(wal, make([]byte, 4096), 0o644)
	header := make([]byte, 136)
	header[8] = 1 // the index's change counter
	os.WriteFile(shm, header, 0o644)
	var mu sync.Mutex
	late, opens := 0, 0
	s, _ := newServer(t, root, Options{Open: func(string) (RunReader, error) {
		st, err := OpenReadOnly(filepath.Join(src, "live"))
		if err != nil {
			return nil, err
		}
		mu.Lock()
		opens++
		mu.Unlock()
		return &committedLater{RunReader: st, mu: &mu, games: &late}, nil
	}})
	look := func(want, wantOpens int, what string) {
		t.Helper()
		runs, err := s.Runs()
		mu.Lock()
		defer mu.Unlock()
		if err != nil || len(runs) != 1 || runs[0].Games != want || opens != wantOpens {
			t.Fatalf("%s: %+v (%v), %d opens; want %d games, %d opens", what, runs, err, opens, want, wantOpens)
		}
	}
	look(4, 1, "first look")
	look(4, 1, "no change")
	mu.Lock()
	late = 1 // a commit, published now: the WAL file does not change again
	mu.Unlock()
	header[8] = 2
	os.WriteFile(shm, header, 0o644)
	look(5, 2, "a commit published after its frames were written")
	look(5, 2, "no change")
}

// TestRecordFormats: games are offered in their own format, by name and
// MIME type: PGN only for chess, GGF and PDN as plain text, one line a
// game for the others.
func TestRecordFormats(t *testing.T) {
	for game, want := range map[string][3]string{
		"chess":     {"pgn", "PGN", "application/x-chess-pgn"},
		"othello":   {"ggf", "GGF", "text/plain; charset=utf-8"},
		"checkers":  {"pdn", "PDN", "text/plain; charset=utf-8"},
		"tictactoe": {"txt", "one line per game", "text/plain; charset=utf-8"},
	} {
		if ext, name, mime := recordFormat(game); [3]string{ext, name, mime} != want {
			t.Errorf("%s: %s %s %s, want %v", game, ext, name, mime, want)
		}
	}
}
