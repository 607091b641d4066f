package web

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gametune/gametune/secretfile"
)

// Options configure a Server. The zero value serves without a token,
// polls every second and shows the last 20 games.
type Options struct {
	// Token, when not empty, is required on every request: as
	// "Authorization: Bearer TOKEN", or as the cookie a browser gets by
	// opening any page once with ?token=TOKEN.
	Token string
	// Poll is how often an event stream looks at its run's store for
	// closed generations. 0 means one second.
	Poll time.Duration
	// LastGames is how many of the latest games a run page lists. 0 means 20.
	LastGames int
	// Open opens a run directory; nil means OpenReadOnly.
	Open Opener
}

// Server is the dashboard over one runs folder. It is an http.Handler.
type Server struct {
	opts    Options
	catalog *catalog
	mux     *http.ServeMux
	// streams is cancelled by Close: it ends the event streams, which
	// never end by themselves.
	streams context.Context
	stop    context.CancelFunc
}

// ErrNoFolder is returned by New for a runs folder that does not exist.
var ErrNoFolder = errors.New("web: the runs folder does not exist")

// New returns the dashboard over the runs in root (its subdirectories, and
// root itself if it is a run). root must be a directory; it may be empty
// and runs may appear in it later.
func New(root string, o Options) (*Server, error) {
	st, err := os.Stat(root)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s (give the folder that holds the run directories with --runs)", ErrNoFolder, root)
	}
	if err != nil {
		return nil, fmt.Errorf("web: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("web: %s is a file, not a folder of runs", root)
	}
	if o.Poll <= 0 {
		o.Poll = time.Second
	}
	if o.LastGames <= 0 {
		o.LastGames = 20
	}
	if o.Open == nil {
		o.Open = OpenReadOnly
	}
	s := &Server{opts: o, catalog: &catalog{root: root, open: o.Open, runs: map[string]*entry{}}, mux: http.NewServeMux()}
	s.streams, s.stop = context.WithCancel(context.Background())
	s.mux.HandleFunc("GET /{$}", s.listPage)
	s.mux.HandleFunc("GET /live.js", s.script)
	s.mux.HandleFunc("GET /runs/{id}", s.runPage)
	s.mux.HandleFunc("GET /runs/{id}/{$}", s.runPage)
	s.mux.HandleFunc("GET /runs/{id}/plots/{file}", s.plot)
	s.mux.HandleFunc("GET /runs/{id}/games", s.lastGames)
	s.mux.HandleFunc("GET /runs/{id}/games/{stage}/{gen}/{index}", s.oneGame)
	s.mux.HandleFunc("GET /runs/{id}/events", s.events)
	s.mux.HandleFunc("GET /api/runs", s.apiRuns)
	s.mux.HandleFunc("GET /api/runs/{id}", s.apiRun)
	s.mux.HandleFunc("GET /api/runs/{id}/events", s.events)
	s.mux.HandleFunc("GET /compare/{id}", s.comparePage)
	s.mux.HandleFunc("GET /compare/{id}/{file}", s.comparePlot)
	s.mux.HandleFunc("GET /api/compare/{id}", s.apiCompare)
	s.mux.HandleFunc("GET /tables/{game}/{evaluator}", s.tablesPage)
	return s, nil
}

// Close ends the event streams and drops what was read of the runs (no
// store is open between requests). Requests served after Close read the
// runs again.
func (s *Server) Close() error {
	s.stop()
	s.catalog.close()
	return nil
}

// ServeHTTP checks the token, if any, and serves the request. Only GET
// and HEAD are served: nothing changes a run.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	// Nothing from elsewhere: the report's inline style and SVG, this
	// server's own script, images and event streams.
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	if s.opts.Token != "" && !s.authorized(w, r) {
		return
	}
	s.mux.ServeHTTP(w, r)
}

const tokenCookie = "gametune_token"

// authorized checks the request's token; it answers 401, or redirects a
// browser that brought ?token= to the same address without it (with the
// token now in a cookie), and reports whether to go on.
func (s *Server) authorized(w http.ResponseWriter, r *http.Request) bool {
	good := func(t string) bool {
		return t != "" && subtle.ConstantTimeCompare([]byte(t), []byte(s.opts.Token)) == 1
	}
	if auth := r.Header.Get("Authorization"); strings.HasPrefix(auth, "Bearer ") && good(strings.TrimPrefix(auth, "Bearer ")) {
		return true
	}
	if c, err := r.Cookie(tokenCookie); err == nil && good(c.Value) {
		return true
	}
	if q := r.URL.Query(); q.Has("token") && good(q.Get("token")) && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
		http.SetCookie(w, &http.Cookie{Name: tokenCookie, Value: s.opts.Token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		q.Del("token")
		// A path on this server, which a browser cannot read as another
		// host's address (//host, /\host): one slash, then no slash or
		// backslash.
		u := url.URL{Path: "/" + strings.TrimLeft(r.URL.Path, `/\`), RawQuery: q.Encode()}
		http.Redirect(w, r, u.String(), http.StatusSeeOther)
		return false
	}
	w.Header().Set("WWW-Authenticate", `Bearer realm="gametune"`)
	http.Error(w, "401 unauthorized: this dashboard needs its token (Authorization: Bearer TOKEN, or open /?token=TOKEN once)", http.StatusUnauthorized)
	return false
}

// run finds the run of the request's {id} and refreshes it; it answers
// 404 and returns nil when there is none.
func (s *Server) run(w http.ResponseWriter, r *http.Request) (*entry, snapshot) {
	e := s.catalog.find(r.PathValue("id"))
	if e == nil {
		http.Error(w, fmt.Sprintf("404: no run %q in this folder", r.PathValue("id")), http.StatusNotFound)
		return nil, snapshot{}
	}
	return e, e.refresh(s.opts.Open, time.Now())
}

// Runs returns the summaries of every run in the folder, damaged ones
// included, and of every comparison of tuners (tune compare) and its
// tuners' runs (compareSummary), in the order of their ids. The runs are
// refreshed by one worker per CPU (GOMAXPROCS): opening and reading the
// runs of a folder the first time is most of the work of a new server's
// first list.
func (s *Server) Runs() ([]Summary, error) {
	runs, err := s.catalog.scan()
	if err != nil {
		return nil, err
	}
	now := time.Now()
	out := make([]Summary, len(runs))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(runs)) {
		wg.Go(func() {
			for i := range jobs {
				out[i] = runs[i].refresh(s.opts.Open, now).sum
			}
		})
	}
	for i := range runs {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return s.withComparisons(out, now), nil
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}

func (s *Server) apiRuns(w http.ResponseWriter, r *http.Request) {
	runs, err := s.Runs()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	sortRuns(runs, r.URL.Query().Get("sort"), r.URL.Query().Get("desc") == "1")
	writeJSON(w, nestTuners(runs))
}

func (s *Server) apiRun(w http.ResponseWriter, r *http.Request) {
	if e, _ := s.run(w, r); e != nil {
		writeJSON(w, s.detail(e))
	}
}

// IsLoopback reports whether the listen address addr (host:port) accepts
// connections from this machine only: a loopback IP or "localhost". An
// empty host listens on every interface.
func IsLoopback(addr string) (bool, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, fmt.Errorf("web: listen address %q: %w (want host:port, e.g. 127.0.0.1:8080)", addr, err)
	}
	if host == "localhost" {
		return true, nil
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback(), nil
}

// Listen opens the dashboard's listener on addr (host:port). An address
// that is not the loopback one needs a token (withToken) or insecure: the
// runs would be open to anyone who can reach the machine. Its errors say
// what to do.
func Listen(addr string, withToken, insecure bool) (net.Listener, error) {
	loopback, err := IsLoopback(addr)
	if err != nil {
		return nil, err
	}
	if !loopback && !withToken && !insecure {
		return nil, fmt.Errorf("web: %s is not a loopback address: give --token-file FILE so that every request needs the token, or --insecure to serve it to anyone who can reach it", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		return nil, fmt.Errorf("web: %s is in use by another program: choose another port with --listen", addr)
	}
	if err != nil {
		return nil, fmt.Errorf("web: cannot listen on %s: %w", addr, err)
	}
	return ln, nil
}

// Open returns the dashboard over the runs in root (New) and its listener
// on addr (Listen: the token of o, or insecure, for an address that is not
// the loopback one).
func Open(root, addr string, o Options, insecure bool) (*Server, net.Listener, error) {
	s, err := New(root, o)
	if err != nil {
		return nil, nil, err
	}
	ln, err := Listen(addr, o.Token != "", insecure)
	if err != nil {
		s.Close()
		return nil, nil, err
	}
	return s, ln, nil
}

// ReadToken reads a token file: one line, not empty, a plain file readable
// by its owner only (secretfile.Read), as it guards the dashboard. An empty path is no
// token file: no token ("").
func ReadToken(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	data, err := secretfile.Read(path, "the token file")
	if err != nil {
		return "", fmt.Errorf("web: %w", err)
	}
	token := strings.TrimSpace(string(data))
	if token == "" {
		return "", fmt.Errorf("web: the token file %s is empty: write a long random token in it (e.g. openssl rand -hex 32 > %s)", path, path)
	}
	if strings.ContainsAny(token, "\r\n\t ;,\"") {
		return "", fmt.Errorf("web: the token in %s must be one word (letters, digits, - _ . ~ + /)", path)
	}
	return token, nil
}

// Serve serves the dashboard on ln until ctx is cancelled, then shuts down
// gracefully: the event streams end, requests in flight have 5 seconds to
// finish, and the stores are closed. It returns ctx's error after a
// shutdown, or the server's error.
func Serve(ctx context.Context, ln net.Listener, s *Server) error {
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	// Read every run once now, so that the first page is quick.
	warm := make(chan struct{})
	go func() {
		defer close(warm)
		s.Runs()
	}()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		<-warm
		s.Close()
		return err
	case <-ctx.Done():
	}
	s.stop() // the event streams end first, or Shutdown would wait for them
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := srv.Shutdown(shut)
	<-done
	<-warm
	s.Close()
	if err != nil {
		return fmt.Errorf("web: shutting down: %w", err)
	}
	return ctx.Err()
}
