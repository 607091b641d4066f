package web

import (
	"context"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// chromiumFlags run Debian's chromium headless, in a new profile, without
// reaching for the network.
func chromiumFlags(profile string) []string {
	return []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--user-data-dir=" + profile}
}

// TestBrowser opens a live run's page in chromium; a generation closes
// once the page's event stream is open, and the DOM (dumped after a few
// seconds, without a reload) shows it: the status line and the report's
// yardstick table have the new generation, and the page counts one update.
// Screenshots before and after go to $GAMETUNE_SCREENSHOTS when set.
func TestBrowser(t *testing.T) {
	browser, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("no chromium (apt-get install chromium)")
	}
	if testing.Short() {
		t.Skip("starts a browser")
	}
	root := t.TempDir()
	r := makeRun(t, root, "live", 6, 2, 8, 3)
	s, err := New(root, Options{Poll: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// Once a page's event stream has sent its first event, the run closes a
	// generation. chromium dumps the DOM (or takes its screenshot) when the
	// page has loaded, so the test holds the page's load back with one
	// image, answered when the page reports (through a test script added
	// to it) that its event stream brought the update and the page swapped
	// it in: the DOM is dumped after that, however slow the machine. No
	// step waits for a set time.
	var mu sync.Mutex
	var once *sync.Once
	written := make(chan time.Time, 1)
	hold := make(chan struct{})
	var release func()
	// expect arms the next subscription to close a generation (update) or
	// leaves the run alone and the page's load free.
	expect := func(update bool) {
		mu.Lock()
		defer mu.Unlock()
		h := make(chan struct{})
		once, hold, release = new(sync.Once), h, sync.OnceFunc(func() { close(h) })
		if !update {
			once.Do(func() {})
			release()
		}
	}
	expect(false)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		mu.Lock()
		o, h, done := once, hold, release
		mu.Unlock()
		switch req.URL.Path {
		case "/runs/live/events":
			w = &flushHook{ResponseWriter: w, first: func() {
				o.Do(func() {
					r.RecordGame(fixtureGame(9, 0))
					gen, _ := r.Info()
					r.RecordGeneration(fixtureGeneration(gen.Generations, 8, 4))
					written <- time.Now()
				})
			}}
		case "/updated": // the page swapped the new report in
			done()
			return
		case "/test-hook.js":
			w.Header().Set("Content-Type", "text/javascript")
			w.Write([]byte(testHook))
			return
		case "/hold":
			select {
			case <-h:
			case <-time.After(30 * time.Second):
			}
			w.Header().Set("Content-Type", "image/svg+xml")
			w.Write([]byte(`<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>`))
			return
		case "/runs/live":
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, req)
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.WriteHeader(rec.Code)
			w.Write([]byte(strings.Replace(rec.Body.String(), "</body>", `<script src="/test-hook.js"></script><img src="/hold" alt="" width="1" height="1"></body>`, 1)))
			return
		}
		s.ServeHTTP(w, req)
	}))
	defer ts.Close()
	shots := os.Getenv("GAMETUNE_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	run := func(args ...string) string {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, browser, append(chromiumFlags(t.TempDir()), args...)...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("chromium %v: %v", args, err)
		}
		return string(out)
	}
	// Before: the list and the run page as loaded (a screenshot loads the
	// page, so it subscribes too: the run closes its generation then).
	run("--window-size=1280,900", "--screenshot="+filepath.Join(shots, "list.png"), ts.URL+"/")
	shot := func(name string, update bool) {
		expect(update)
		run("--window-size=1280,1400", "--screenshot="+filepath.Join(shots, name), ts.URL+"/runs/live")
		if !update {
			return
		}
		select {
		case <-written:
		case <-time.After(10 * time.Second):
			t.Fatal("the page never opened its event stream")
		}
	}
	shot("run-before.png", false)
	// While this page is open, a generation closes.
	expect(true)
	start := time.Now()
	dom := run("--dump-dom", ts.URL+"/runs/live")
	select {
	case <-written:
	case <-time.After(10 * time.Second):
		t.Fatal("the page never opened its event stream")
	}
	t.Logf("DOM dumped %v after loading", time.Since(start))
	for _, want := range []string{`data-updates="1"`, `<span id="live-done">3</span>`, "updated ", `data-done="3"`, "3 of 6 generations", "<td>3</td><td>16</td>"} {
		if !strings.Contains(dom, want) {
			t.Errorf("the page did not update in place: no %q in the DOM", want)
		}
	}
	if strings.Contains(dom, "reconnecting") {
		t.Error("the event stream broke")
	}
	shot("run-after.png", true)
	for _, name := range []string{"list.png", "run-before.png", "run-after.png"} {
		f, err := os.Open(filepath.Join(shots, name))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if img.Bounds().Dx() != 1280 {
			t.Errorf("%s is %v", name, img.Bounds())
		}
	}
}

// testHook, added to the run page by TestBrowser, tells the server when the
// page's own script has swapped an updated report in (#live's
// data-updates leaves 0).
const testHook = `"use strict";
(function () {
  var live = document.getElementById("live");
  new MutationObserver(function () {
    if (live.dataset.updates !== "0") { fetch("/updated"); }
  }).observe(live, {attributes: true, attributeFilter: ["data-updates"]});
})();
`

// flushHook is a ResponseWriter that calls first after its first flush:
// when an event stream has sent its first event.
type flushHook struct {
	http.ResponseWriter
	first func()
	once  sync.Once
}

func (f *flushHook) Flush() {
	f.ResponseWriter.(http.Flusher).Flush()
	f.once.Do(f.first)
}
