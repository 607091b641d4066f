package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// keepAlive is how often an idle event stream sends a comment, so that
// proxies and browsers keep it open.
const keepAlive = 15 * time.Second

// events streams a run's changes as server-sent events, each carrying the
// run's Summary as JSON: "hello" at once, then "generation" when a
// generation (round) closed, "status" when the status changed (or the run
// became damaged or readable), "ladder" when a ladder or a verification
// was recorded (the best, or what is known of it, may have changed), "progress" when games were added. The stream
// looks at the run every Options.Poll: a stat of its files, and a read
// (open, read, close) only when they changed, or lately (entry.refresh).
// It ends when the client goes or the server closes.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	e, snap := s.run(w, r)
	if e == nil {
		return
	}
	send, ok := startStream(w)
	if !ok || !send("hello", snap.sum) {
		return
	}
	last := snap
	poll := time.NewTicker(s.opts.Poll)
	defer poll.Stop()
	idle := time.NewTicker(keepAlive)
	defer idle.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-s.streams.Done():
			return
		case <-idle.C:
			if !send("", Summary{}) {
				return
			}
		case <-poll.C:
			cur := e.refresh(s.opts.Open, time.Now())
			event := change(last, cur)
			last = cur
			if event != "" && !send(event, cur.sum) {
				return
			}
		}
	}
}

// startStream answers with an event stream and returns how to send an
// event carrying a summary (the event "" sends a keep-alive comment),
// reporting whether the client still listens; false when w cannot stream.
func startStream(w http.ResponseWriter) (send func(event string, sum Summary) bool, ok bool) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "web: this connection cannot stream events", http.StatusInternalServerError)
		return nil, false
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	if _, err := fmt.Fprintf(w, "retry: %d\n\n", 2000); err != nil {
		return nil, false
	}
	return func(event string, sum Summary) bool {
		var err error
		if event == "" {
			_, err = fmt.Fprint(w, ": keep-alive\n\n")
		} else {
			var data []byte
			if data, err = json.Marshal(sum); err == nil {
				_, err = fmt.Fprintf(w, "event: %s\nid: %d\ndata: %s\n\n", event, sum.Done, data)
			}
		}
		if err != nil {
			return false
		}
		flusher.Flush()
		return true
	}, true
}

// change names the event from last to cur: "generation", "status",
// "ladder", "progress", or "" when nothing the page shows changed.
func change(last, cur snapshot) string {
	switch {
	case cur.sum.Done != last.sum.Done:
		return "generation"
	case cur.sum.Status != last.sum.Status || cur.sum.Damaged != last.sum.Damaged:
		return "status"
	case cur.view.ladder != last.view.ladder, cur.view.verified != last.view.verified:
		return "ladder"
	case cur.sum.Games != last.sum.Games:
		return "progress"
	}
	return ""
}

// script is the run page's only script: one EventSource. Progress events
// update the status line; generation, status and ladder events also fetch
// the page once and swap its report in, so the new generation shows without a
// reload.
func (s *Server) script(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	fmt.Fprint(w, liveScript)
}

const liveScript = `"use strict";
(function () {
  var live = document.getElementById("live");
  if (!live || !window.EventSource) { return; }
  var note = document.getElementById("live-note");
  var updates = 0;
  function set(id, text) {
    var el = document.getElementById(id);
    if (el) { el.textContent = text; }
  }
  function show(s) {
    set("live-status", s.status);
    document.getElementById("live-status").className = "status " + s.status;
    set("live-done", s.done);
    set("live-planned", s.planned);
    set("live-games", s.games);
    set("live-games-planned", s.games_planned > 0 ? s.games_planned : "?");
    set("live-rate", s.games_per_second == null ? "–" : s.games_per_second.toFixed(1));
    set("live-eta", s.eta ? s.eta.replace("T", " ").replace(/:\d\d(\.\d+)?(Z|[+-].*)$/, " UTC") : "–");
    document.getElementById("live-eta-part").hidden = s.status !== "running";
  }
  function refresh(e) {
    show(JSON.parse(e.data));
    fetch(live.dataset.page, {credentials: "same-origin"})
      .then(function (r) { return r.text(); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("report");
        var old = document.getElementById("report");
        if (fresh && old) { old.replaceWith(document.importNode(fresh, true)); }
        updates++;
        live.dataset.updates = String(updates);
        set("live-note", "updated " + new Date().toISOString().slice(11, 19) + " UTC");
        live.classList.remove("fresh");
        void live.offsetWidth;
        live.classList.add("fresh");
      });
  }
  var source = new EventSource(live.dataset.events);
  source.addEventListener("hello", function (e) {
    show(JSON.parse(e.data));
    if (!updates) { set("live-note", "● live"); }
  });
  source.addEventListener("progress", function (e) { show(JSON.parse(e.data)); });
  source.addEventListener("generation", refresh);
  source.addEventListener("status", refresh);
  source.addEventListener("ladder", refresh);
  source.onerror = function () { set("live-note", "reconnecting…"); };
})();
`
