package stats

import (
	"encoding/json"
	"math"
	"testing"
)

func TestFloatJSON(t *testing.T) {
	data, err := json.Marshal([]Float{Float(math.Inf(1)), Float(math.Inf(-1)), Float(math.NaN()), Float(math.Copysign(0, -1)), 1.5})
	if err != nil || string(data) != "[null,null,null,0,1.5]" {
		t.Fatalf("%s %v", data, err)
	}
}
