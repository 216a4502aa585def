// encoding/json: struct tags, Marshal/Unmarshal, MarshalIndent, generic maps, streaming Encoder/Decoder, custom marshalers.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"time"
)

func check(ok bool, msg string) {
	if !ok {
		fmt.Fprintln(os.Stderr, "FAIL:", msg)
		os.Exit(1)
	}
}

type Color int

func (c Color) MarshalJSON() ([]byte, error) { return json.Marshal([]string{"red", "green"}[c]) }
func (c *Color) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	switch s {
	case "red":
		*c = 0
	case "green":
		*c = 1
	default:
		return fmt.Errorf("bad color %q", s)
	}
	return nil
}

type Item struct {
	ID      int               `json:"id"`
	Name    string            `json:"name"`
	Tags    []string          `json:"tags,omitempty"`
	Price   float64           `json:"price"`
	Color   Color             `json:"color"`
	Meta    map[string]string `json:"meta,omitempty"`
	Secret  string            `json:"-"`
	When    time.Time         `json:"when"`
	Parent  *Item             `json:"parent,omitempty"`
	private int
}

func main() {
	when := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	in := Item{ID: 1, Name: "wïdget \"x\" <b>", Tags: []string{"a", "b"}, Price: 9.99, Color: 1,
		Meta: map[string]string{"z": "1", "a": "2"}, Secret: "s", When: when, Parent: &Item{ID: 0, Name: "root", When: when}}
	b, err := json.Marshal(in)
	check(err == nil, "marshal")
	check(!strings.Contains(string(b), "Secret") && strings.Contains(string(b), `"color":"green"`), "tags")
	check(strings.Contains(string(b), `"meta":{"a":"2","z":"1"}`), "sorted map keys")
	check(strings.Contains(string(b), `\u003cb\u003e`), "html escape")
	var out Item
	check(json.Unmarshal(b, &out) == nil, "unmarshal")
	in.Secret = ""
	check(reflect.DeepEqual(in, out), "roundtrip")

	var generic map[string]interface{}
	check(json.Unmarshal([]byte(`{"a":[1,2,{"b":null}],"c":true,"d":1.5e3,"e":"\u00e9"}`), &generic) == nil, "generic")
	arr := generic["a"].([]interface{})
	check(arr[0].(float64) == 1 && arr[2].(map[string]interface{})["b"] == nil, "nested")
	check(generic["c"] == true && generic["d"] == 1500.0 && generic["e"] == "é", "values")

	ind, _ := json.MarshalIndent(map[string]int{"b": 2, "a": 1}, "", "  ")
	check(string(ind) == "{\n  \"a\": 1,\n  \"b\": 2\n}", "indent")

	var c Color
	err = json.Unmarshal([]byte(`"blue"`), &c)
	check(err != nil && strings.Contains(err.Error(), "bad color"), "custom error")
	var se *json.SyntaxError
	err = json.Unmarshal([]byte(`{"a":`), &generic)
	check(err != nil, "syntax error")
	_ = se
	var ute *json.UnmarshalTypeError
	err = json.Unmarshal([]byte(`{"id":"x"}`), &out)
	check(err != nil && fmt.Sprintf("%T", err) == fmt.Sprintf("%T", ute), "type error")

	// streaming
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for i := 0; i < 1000; i++ {
		check(enc.Encode(map[string]int{"n": i}) == nil, "encode")
	}
	dec := json.NewDecoder(&buf)
	sum := 0
	for {
		var m map[string]int
		if err := dec.Decode(&m); err == io.EOF {
			break
		} else if err != nil {
			check(false, "decode")
		}
		sum += m["n"]
	}
	check(sum == 499500, "stream sum")
	dec = json.NewDecoder(strings.NewReader(`{"id": 5, "bogus": 1}`))
	dec.DisallowUnknownFields()
	check(dec.Decode(&out) != nil, "unknown fields")
	dec = json.NewDecoder(strings.NewReader(`12345678901234567890`))
	dec.UseNumber()
	var num interface{}
	check(dec.Decode(&num) == nil && num.(json.Number).String() == "12345678901234567890", "usenumber")
	var raw struct {
		Kind string          `json:"kind"`
		Data json.RawMessage `json:"data"`
	}
	check(json.Unmarshal([]byte(`{"kind":"x","data":{"q":[1]}}`), &raw) == nil && string(raw.Data) == `{"q":[1]}`, "raw")
	check(json.Valid([]byte(`[1,2]`)) && !json.Valid([]byte(`[1,`)), "valid")
	fmt.Println("OK")
}
