// Structs, methods, interfaces, type switches and struct embedding.
package main

import (
	"fmt"
	"math"
	"os"
	"sort"
)

func check(ok bool, msg string) {
	if !ok {
		fmt.Fprintln(os.Stderr, "FAIL:", msg)
		os.Exit(1)
	}
}

type Shape interface {
	Area() float64
	Perimeter() float64
}

type Rect struct{ W, H float64 }
type Circle struct{ R float64 }

func (r Rect) Area() float64        { return r.W * r.H }
func (r Rect) Perimeter() float64   { return 2 * (r.W + r.H) }
func (c Circle) Area() float64      { return math.Pi * c.R * c.R }
func (c Circle) Perimeter() float64 { return 2 * math.Pi * c.R }

type Named struct{ Name string }

func (n Named) Hello() string { return "hello " + n.Name }

type Counter struct{ n int }

func (c *Counter) Inc() { c.n++ }

type Widget struct {
	Named
	*Counter
	Size int
}

type Stringer interface{ String() string }

type Temp float64

func (t Temp) String() string { return fmt.Sprintf("%.1f°C", float64(t)) }

func describe(v interface{}) string {
	switch x := v.(type) {
	case nil:
		return "nil"
	case int:
		return fmt.Sprintf("int %d", x)
	case string:
		return "string " + x
	case Stringer:
		return "stringer " + x.String()
	case error:
		return "error " + x.Error()
	default:
		return fmt.Sprintf("other %T", x)
	}
}

func main() {
	shapes := []Shape{Rect{3, 4}, Circle{1}, Rect{1, 1}}
	sort.Slice(shapes, func(i, j int) bool { return shapes[i].Area() < shapes[j].Area() })
	check(shapes[0].(Rect).W == 1, "sorted by area")
	total := 0.0
	for _, s := range shapes {
		total += s.Perimeter()
	}
	check(math.Abs(total-(14+4+2*math.Pi)) < 1e-9, "perimeter")
	if c, ok := shapes[1].(Circle); !ok || c.R != 1 {
		check(false, "assert circle")
	}

	w := Widget{Named{"w"}, &Counter{}, 3}
	w.Inc()
	w.Inc()
	check(w.Hello() == "hello w" && w.n == 2 && w.Counter.n == 2, "embedding")

	check(describe(nil) == "nil", "nil")
	check(describe(5) == "int 5", "int")
	check(describe("x") == "string x", "string")
	check(describe(Temp(21.5)) == "stringer 21.5°C", "stringer")
	check(describe(fmt.Errorf("bad")) == "error bad", "error")
	check(describe(3.5) == "other float64", "other")

	// comparable structs as map keys; anonymous structs
	type key struct{ a, b int }
	m := map[key]string{{1, 2}: "x"}
	check(m[key{1, 2}] == "x", "struct key")
	anon := struct {
		A int
		B []string
	}{1, []string{"q"}}
	check(anon.B[0] == "q", "anon")
	var sh Shape
	check(sh == nil, "nil interface")
	// method values and expressions
	r := Rect{2, 5}
	f := r.Area
	g := Rect.Perimeter
	check(f() == 10 && g(r) == 14, "method values")
	fmt.Println("OK")
}
