package games

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/gametune/gametune/files"
)

// The compact weights file holds an evaluator with tables (Evaluator.Tables):
// its features as in the JSON file, and its tables' values in binary. The
// whole file is gzip-compressed (RFC 1952), so that a table of mostly zeros
// takes little room; decompressed, it is
//
//	HEADER "\n" DATA
//
// HEADER is one line of JSON, a TablesHeader:
//
//	{"format": "gametune-weights", "version": 1, "game": "othello", "evaluator": "patterns",
//	 "weights": {"edge@0": 1, ..., "mobility@0": 30, ...},
//	 "tables": [{"name": "edge", "shape": [8, 3321], "encoding": "int16", "scale": 0.00123}, ...],
//	 "source": {...}}
//
// DATA is the tables' values one table after another in the header's order,
// each row-major, little-endian: an "int16" table stores round(value /
// scale) as a signed 16-bit integer (value = int16 * scale; the writer
// chooses the scale per table from its largest magnitude, which becomes
// ±32767), a "float32" table stores IEEE 754 single-precision values.
//
// A reader checks the header against the evaluator before it reads any
// data: the game, the evaluator, every feature, every table present once
// with exactly the evaluator's shape and no other, an int16 table's scale
// at most MaxTableValue; then that DATA holds every value (not
// truncated), finite and within ±MaxTableValue, and nothing after them.
// The data read is thus bounded by the evaluator's own tables, and the
// header line by MaxTablesHeader, whatever the file claims.

// TablesFormat and TablesVersion are the format and version of the compact
// weights file this package writes and reads.
const (
	TablesFormat  = "gametune-weights"
	TablesVersion = 1
)

// The encodings of a table in a compact weights file.
const (
	EncodingInt16   = "int16"
	EncodingFloat32 = "float32"
)

// MaxTablesHeader is the longest header line a compact weights file may
// have: 1 MiB, a hundred times that of an evaluator of a thousand features.
const MaxTablesHeader = 1 << 20

// TablesHeader is the first line of a compact weights file.
type TablesHeader struct {
	Format    string             `json:"format"`
	Version   int                `json:"version"`
	Game      string             `json:"game"`
	Evaluator string             `json:"evaluator"`
	Weights   map[string]float64 `json:"weights"`
	Tables    []TableEncoding    `json:"tables"`
	Source    map[string]any     `json:"source,omitempty"`
}

// TableEncoding is how a compact weights file stores one table.
type TableEncoding struct {
	Name     string  `json:"name"`
	Shape    []int   `json:"shape"`
	Encoding string  `json:"encoding"`        // EncodingInt16 or EncodingFloat32
	Scale    float64 `json:"scale,omitempty"` // int16 only: value = int16 * Scale
}

var gzipMagic = []byte{0x1f, 0x8b}

// IsTablesWeights reports whether data starts as a compact weights file
// does (gzip's magic bytes) rather than as a JSON one.
func IsTablesWeights(data []byte) bool { return bytes.HasPrefix(data, gzipMagic) }

// maxScale is the largest scale of an int16 table: with a larger one,
// every value but 0 would lie beyond MaxTableValue (a table of zeros has
// scale 1; the writer's scale is the table's peak over 32767). The values
// read are checked against MaxTableValue all the same.
const maxScale = float64(MaxTableValue)

// QuantizeTable returns values as int16 with their scale: value ≈ q *
// scale within scale/2, the largest magnitude becoming ±32767. A table of
// zeros has scale 1. values must be finite.
func QuantizeTable(values []float32) (q []int16, scale float64) {
	peak := 0.0
	for _, v := range values {
		peak = max(peak, math.Abs(float64(v)))
	}
	scale = 1
	if peak > 0 {
		scale = peak / 32767
	}
	q = make([]int16, len(values))
	for i, v := range values {
		q[i] = int16(max(-32767, min(32767, math.Round(float64(v)/scale))))
	}
	return q, scale
}

func writeTablesWeights(out io.Writer, g Game, ev *Evaluator, w []float64, source map[string]any, encoding string) error {
	if encoding == "" {
		encoding = EncodingInt16
	}
	if encoding != EncodingInt16 && encoding != EncodingFloat32 {
		return fmt.Errorf("weights: encoding %q (accepted: %s, %s)", encoding, EncodingInt16, EncodingFloat32)
	}
	if len(ev.Data) != ev.TablesSize() {
		return fmt.Errorf("weights: evaluator %q has tables of %d values in all, its Data %d", ev.Name, ev.TablesSize(), len(ev.Data))
	}
	if i := slices.IndexFunc(ev.Data, func(v float32) bool { return !(math.Abs(float64(v)) <= MaxTableValue) }); i >= 0 {
		return fmt.Errorf("weights: value %d of the tables of %q is %v (must be finite, within ±%d: games.MaxTableValue)", i, ev.Name, ev.Data[i], MaxTableValue)
	}
	h := TablesHeader{Format: TablesFormat, Version: TablesVersion, Game: g.Name(), Evaluator: ev.Name,
		Weights: map[string]float64{}, Source: source}
	for i, f := range ev.Features {
		h.Weights[f.Name] = w[i]
	}
	data := make([]byte, 0, 4*len(ev.Data))
	off := 0
	for _, t := range ev.Tables {
		values := ev.Data[off : off+t.Size()]
		off += t.Size()
		te := TableEncoding{Name: t.Name, Shape: t.Shape, Encoding: encoding}
		if encoding == EncodingFloat32 {
			for _, v := range values {
				data = binary.LittleEndian.AppendUint32(data, math.Float32bits(v))
			}
		} else {
			var q []int16
			q, te.Scale = QuantizeTable(values)
			for _, x := range q {
				data = binary.LittleEndian.AppendUint16(data, uint16(x))
			}
		}
		h.Tables = append(h.Tables, te)
	}
	line, err := json.Marshal(h)
	if err != nil {
		return fmt.Errorf("weights: header: %w", err)
	}
	zw := gzip.NewWriter(out)
	zw.Write(line)
	zw.Write([]byte{'\n'})
	zw.Write(data)
	return zw.Close()
}

// streamError says what went wrong reading the decompressed stream while
// reading what.
func streamError(err error, what string) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return fmt.Errorf("weights: truncated: %s", what)
	}
	return fmt.Errorf("weights: corrupt gzip stream (%s): %w", what, err)
}

// openTables opens a compact weights file and reads its header line.
func openTables(data []byte) (*bufio.Reader, TablesHeader, error) {
	var h TablesHeader
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, h, streamError(err, "in the gzip header")
	}
	r := bufio.NewReaderSize(zr, 64<<10)
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > MaxTablesHeader {
			return nil, h, fmt.Errorf("weights: the header line is longer than %s, the most read", files.ByteSize(MaxTablesHeader))
		}
		if err == nil {
			break
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return nil, h, streamError(err, "the header line ends before its newline")
		}
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		return nil, h, fmt.Errorf("weights: the header line is not a %s header ({\"format\", \"version\", \"game\", \"evaluator\", \"weights\", \"tables\"}): %w", TablesFormat, err)
	}
	if dec.More() {
		return nil, h, fmt.Errorf("weights: unexpected data after the header's JSON object")
	}
	if h.Format != TablesFormat || h.Version != TablesVersion {
		return nil, h, fmt.Errorf("weights: format %q version %d (this gametune reads %q version %d)", h.Format, h.Version, TablesFormat, TablesVersion)
	}
	return r, h, nil
}

func readTablesHeader(data []byte) (TablesHeader, error) {
	_, h, err := openTables(data)
	return h, err
}

// tableSpan is where a table of the file goes in the evaluator's Data.
type tableSpan struct {
	TableEncoding
	offset, size int
}

// checkTablesHeader checks h against g's evaluators and returns the
// evaluator, the weights and where each table of the file goes.
func checkTablesHeader(h TablesHeader, g Game) (*Evaluator, []float64, []tableSpan, error) {
	if h.Game != g.Name() {
		return nil, nil, nil, fmt.Errorf("weights: the file is for game %q, not %q", h.Game, g.Name())
	}
	if h.Evaluator == "" {
		return nil, nil, nil, fmt.Errorf("weights: the file names no evaluator (%s has %s)", g.Name(), evaluatorNames(g))
	}
	ev, err := FindEvaluator(g, h.Evaluator)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("weights: %w", err)
	}
	if len(ev.Tables) == 0 {
		return nil, nil, nil, fmt.Errorf("weights: evaluator %s/%s has no tables: its weights file is JSON, not the compact file", g.Name(), ev.Name)
	}
	w, err := checkFeatures(g, ev, h.Weights)
	if err != nil {
		return nil, nil, nil, err
	}
	var spans []tableSpan
	seen := map[string]bool{}
	for _, te := range h.Tables {
		off, t := ev.TableOffset(te.Name)
		switch {
		case off < 0:
			return nil, nil, nil, fmt.Errorf("weights: unknown table %q for %s/%s (tables: %s)", te.Name, g.Name(), ev.Name, tableNames(ev.Tables))
		case seen[te.Name]:
			return nil, nil, nil, fmt.Errorf("weights: table %s appears twice", te.Name)
		case !slices.Equal(te.Shape, t.Shape):
			return nil, nil, nil, fmt.Errorf("weights: table %s: shape %v, want %v", te.Name, te.Shape, t.Shape)
		case te.Encoding == EncodingFloat32 && te.Scale != 0:
			return nil, nil, nil, fmt.Errorf("weights: table %s: a scale (%g) for a float32 table (only int16 tables have one)", te.Name, te.Scale)
		case te.Encoding == EncodingInt16 && !(te.Scale > 0 && te.Scale <= maxScale):
			return nil, nil, nil, fmt.Errorf("weights: table %s: scale %g (an int16 table needs a scale above 0, at most %g)", te.Name, te.Scale, maxScale)
		case te.Encoding != EncodingInt16 && te.Encoding != EncodingFloat32:
			return nil, nil, nil, fmt.Errorf("weights: table %s: encoding %q (accepted: %s, %s)", te.Name, te.Encoding, EncodingInt16, EncodingFloat32)
		}
		seen[te.Name] = true
		spans = append(spans, tableSpan{te, off, t.Size()})
	}
	var missing []string
	for _, t := range ev.Tables {
		if !seen[t.Name] {
			missing = append(missing, t.Name)
		}
	}
	if len(missing) > 0 {
		return nil, nil, nil, fmt.Errorf("weights: tables missing for %s/%s: %v", g.Name(), ev.Name, missing)
	}
	return ev, w, spans, nil
}

// checkTableValues refuses a table value beyond ±MaxTableValue, with
// which an evaluation could saturate.
func checkTableValues(spans []tableSpan, values []float32) error {
	for _, s := range spans {
		for i, v := range values[s.offset : s.offset+s.size] {
			if math.Abs(float64(v)) > MaxTableValue {
				return fmt.Errorf("weights: table %s: value %d is %g; a table value lies within ±%d, so that no evaluation saturates (games.MaxTableValue)", s.Name, i, v, MaxTableValue)
			}
		}
	}
	return nil
}

// maxLeftover is how much of the data after the last table is counted
// for the error that reports it.
const maxLeftover = 1 << 20

// parseTablesWeights reads a compact weights file (see TablesHeader).
func parseTablesWeights(data []byte, g Game) (*Evaluator, []float64, error) {
	r, h, err := openTables(data)
	if err != nil {
		return nil, nil, err
	}
	ev, w, spans, err := checkTablesHeader(h, g)
	if err != nil {
		return nil, nil, err
	}
	values := make([]float32, ev.TablesSize())
	var buf []byte
	need := 0
	for _, s := range spans {
		width := 2
		if s.Encoding == EncodingFloat32 {
			width = 4
		}
		need += s.size * width
		buf = slices.Grow(buf[:0], s.size*width)[:s.size*width]
		if n, err := io.ReadFull(r, buf); err != nil {
			return nil, nil, streamError(err, fmt.Sprintf("table %s has %d of %d values", s.Name, n/width, s.size))
		}
		dst := values[s.offset : s.offset+s.size]
		for i := range dst {
			if width == 2 {
				dst[i] = float32(float64(int16(binary.LittleEndian.Uint16(buf[2*i:]))) * s.Scale)
				continue
			}
			v := math.Float32frombits(binary.LittleEndian.Uint32(buf[4*i:]))
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return nil, nil, fmt.Errorf("weights: table %s: value %d is %v (must be finite)", s.Name, i, v)
			}
			dst[i] = v
		}
	}
	if err := checkTableValues(spans, values); err != nil {
		return nil, nil, err
	}
	var one [1]byte
	switch _, err := io.ReadFull(r, one[:]); {
	case err == nil:
		n, _ := io.Copy(io.Discard, io.LimitReader(r, maxLeftover))
		more := ""
		if n == maxLeftover {
			more = " or more"
		}
		return nil, nil, fmt.Errorf("weights: %d bytes%s left over after the last table (the header's tables take %d bytes)", n+1, more, need)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return nil, nil, fmt.Errorf("weights: truncated: the gzip stream ends before its checksum")
	case !errors.Is(err, io.EOF):
		return nil, nil, fmt.Errorf("weights: corrupt gzip stream after the last table: %w", err)
	}
	bound, err := ev.WithData(values)
	if err != nil {
		return nil, nil, fmt.Errorf("weights: %w", err)
	}
	return bound, w, nil
}
