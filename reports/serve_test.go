package reports

import (
	"errors"
	"strings"
	"testing"

	"github.com/gametune/gametune/results"
)

// TestLivePage: the report comes back whole, with head right after <body>
// and tail right before </body>; a run without a generation gives ErrNoData.
func TestLivePage(t *testing.T) {
	r := loadRecorded(t, "genetic")
	page, err := LivePage(r, `<div id="head">`, `</div><p id="tail"></p>`)
	if err != nil {
		t.Fatal(err)
	}
	s := string(page)
	if !strings.Contains(s, `<body>`+`<div id="head">`) || !strings.Contains(s, `<p id="tail"></p></body>`) {
		t.Error("head or tail is not where it belongs")
	}
	report, _ := HTML(r)
	stripped := strings.Replace(strings.Replace(s, `<div id="head">`, "", 1), `</div><p id="tail"></p>`, "", 1)
	if stripped != string(report) {
		t.Error("the live page changes the report itself")
	}
	empty, err := NewRun("empty", smallConfig("genetic"), nil, results.Info{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := LivePage(empty, "", ""); !errors.Is(err, ErrNoData) {
		t.Errorf("a run without generations: %v, want ErrNoData", err)
	}
}
