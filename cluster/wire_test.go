package cluster

import (
	"errors"
	"reflect"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/tournament"
)

func TestJobRoundTrip(t *testing.T) {
	for _, spec := range matchSpecs(t, 2) {
		job, err := NewJob(spec, 2)
		if err != nil {
			t.Fatal(err)
		}
		data, err := job.Encode()
		if err != nil {
			t.Fatal(err)
		}
		got, back, err := DecodeJob(data)
		if err != nil {
			t.Fatal(err)
		}
		if got.Key != job.Key || back.Game != spec.Game || back.Opening != spec.Opening || back.Seed != spec.Seed ||
			!reflect.DeepEqual(back.First.Weights, spec.First.Weights) || back.First.Limits != spec.First.Limits ||
			back.Second.Evaluator.Name != spec.Second.Evaluator.Name || back.First.Name != spec.First.Name {
			t.Errorf("round trip changed the spec: %+v", back)
		}
		again, _ := NewJob(back, 2)
		if again.Key != job.Key {
			t.Error("the key of the decoded spec differs")
		}
	}
}

func TestDecodeJobRefusesBadInput(t *testing.T) {
	job, _ := NewJob(matchSpecs(t, 1)[0], 2)
	for name, tc := range map[string]struct {
		edit    func(j *Job)
		refused bool
	}{
		"version":        {func(j *Job) { j.V = 99 }, true},
		"game":           {func(j *Job) { j.Game = "go" }, true},
		"evaluator":      {func(j *Job) { j.First.Evaluator = "nope" }, true},
		"weights":        {func(j *Job) { j.First.Weights = j.First.Weights[1:] }, false},
		"weight range":   {func(j *Job) { j.Second.Weights[0] = 1e300 }, false},
		"opening":        {func(j *Job) { j.Opening = "zz" }, false},
		"no limit":       {func(j *Job) { j.First.Depth, j.First.Nodes = 0, 0 }, false},
		"deep":           {func(j *Job) { j.First.Depth = 1000 }, false},
		"past the bound": {func(j *Job) { j.First.Depth = engine.MaxDepth + 1 }, false},
		"table":          {func(j *Job) { j.TableMiB = 0 }, false},
		"plies":          {func(j *Job) { j.MaxPlies = -1 }, false},
		"adjudication":   {func(j *Job) { j.Adjudication.DrawPlies = -3 }, false},
		"no key":         {func(j *Job) { j.Key = "" }, false},
		"long name":      {func(j *Job) { j.First.Name = string(make([]byte, 300)) }, false},
		"negative nodes": {func(j *Job) { j.Second.Nodes = -1 }, false},
	} {
		j := job
		j.First.Weights = append([]float64(nil), job.First.Weights...)
		j.Second.Weights = append([]float64(nil), job.Second.Weights...)
		tc.edit(&j)
		data, _ := j.Encode()
		_, _, err := DecodeJob(data)
		if err == nil {
			t.Errorf("%s: accepted", name)
			continue
		}
		if errors.Is(err, ErrRefused) != tc.refused {
			t.Errorf("%s: refused=%v, want %v: %v", name, errors.Is(err, ErrRefused), tc.refused, err)
		}
	}
	for _, data := range []string{"", "{", "null", `{"v":1,"key":"k","extra":1}`, `{"v":1} {}`, `[]`} {
		if _, _, err := DecodeJob([]byte(data)); err == nil {
			t.Errorf("%q accepted", data)
		}
	}
}

func TestResultRoundTrip(t *testing.T) {
	rec := tournament.Record{Outcome: 1, Reason: tournament.ByRule, Opening: "x", Moves: []string{"d3", "c5"}, Plies: 2, Nodes: 40, Duration: 5}
	data, _ := jsonMarshal(NewResult("k", "w", rec))
	r, err := DecodeResult(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(r.Record(), rec) {
		t.Errorf("got %+v", r.Record())
	}
	for _, bad := range []string{`{"v":1,"key":"k","outcome":0,"reason":"rule"}`, `{"v":1,"key":"k","outcome":1,"reason":"why"}`,
		`{"v":1,"key":"k","outcome":1,"reason":"rule","plies":3}`, `{"v":2}`} {
		if _, err := DecodeResult([]byte(bad)); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

// FuzzDecodeJob: no job message makes the decoder panic, and a job it
// accepts makes a game that can be played.
func FuzzDecodeJob(f *testing.F) {
	for _, spec := range matchSpecs(&testing.T{}, 1) {
		job, _ := NewJob(spec, 2)
		data, _ := job.Encode()
		f.Add(data)
	}
	f.Add([]byte(`{"v":1,"key":"k","game":"tictactoe","first":{"evaluator":"x"}}`))
	f.Add([]byte(`{"v":1,"key":"k","game":"chess","opening":"8/8/8/8/8/8/8/8 w - - 0 1"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, spec, err := DecodeJob(data)
		if err != nil {
			return
		}
		if spec.Game == nil || spec.First.Evaluator == nil || spec.Second.Evaluator == nil {
			t.Fatal("accepted a job without a game or evaluators")
		}
		if _, err := NewJob(spec, 2); err != nil {
			t.Fatal(err)
		}
	})
}
