package reports

import (
	"bytes"
	"fmt"
	"html/template"
)

// LivePage renders the run's report (the page HTML writes, with the same
// template, weights, yardstick and plots) with head inserted at the start
// of its body and tail at its end: the live dashboard's page of one run
// wraps the report in its own navigation, status line and script. It
// returns ErrNoData, like HTML, when no generation has finished yet.
func LivePage(r *Run, head, tail template.HTML) ([]byte, error) {
	page, err := HTML(r)
	if err != nil {
		return nil, err
	}
	open := bytes.Index(page, []byte("<body>"))
	end := bytes.LastIndex(page, []byte("</body>"))
	if open < 0 || end < open {
		return nil, fmt.Errorf("reports: the report has no <body> to wrap")
	}
	open += len("<body>")
	var b bytes.Buffer
	b.Grow(len(page) + len(head) + len(tail))
	b.Write(page[:open])
	b.WriteString(string(head))
	b.Write(page[open:end])
	b.WriteString(string(tail))
	b.Write(page[end:])
	return b.Bytes(), nil
}
