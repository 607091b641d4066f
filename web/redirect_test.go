package web

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestTokenRedirectStaysHere: the redirect that drops ?token= from an
// address goes to a path on this server, whatever the request's path:
// never to one a browser reads as another host (//host, /\host).
func TestTokenRedirectStaysHere(t *testing.T) {
	root := t.TempDir()
	makeRun(t, root, "alpha", 5, 2, 4, 2)
	_, ts := newServer(t, root, Options{Token: "T"})
	cases := []struct{ path, want string }{
		{"//evil.example/?token=T", "/evil.example/"},
		{"//evil.example?token=T&x=1", "/evil.example?x=1"},
		{"///evil.example/a?token=T", "/evil.example/a"},
		{"/%2F%2Fevil.example/?token=T", "/evil.example/"},
		{`/\evil.example/?token=T`, "/evil.example/"},
		{"/%5Cevil.example/?token=T", "/evil.example/"},
		{"/runs/alpha?token=T&x=1", "/runs/alpha?x=1"},
		{"/?token=T", "/"},
	}
	for _, c := range cases {
		// A raw request line, as a client that does not clean paths sends it.
		conn, err := net.Dial("tcp", strings.TrimPrefix(ts.URL, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: dashboard\r\nConnection: close\r\n\r\n", c.path)
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		conn.Close()
		loc := resp.Header.Get("Location")
		if resp.StatusCode != http.StatusSeeOther || loc != c.want {
			t.Errorf("%s: %d Location %q, want 303 %q", c.path, resp.StatusCode, loc, c.want)
		}
		u, err := url.Parse(loc)
		if err != nil || u.Host != "" || u.Scheme != "" || !strings.HasPrefix(loc, "/") || strings.HasPrefix(loc, "//") || strings.HasPrefix(loc, `/\`) {
			t.Errorf("%s: Location %q leaves the server", c.path, loc)
		}
	}
}
