// text/template: fields, range, if/else, with, custom funcs, nested templates, pipelines and errors.
package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"text/template"
)

func check(ok bool, msg string) {
	if !ok {
		fmt.Fprintln(os.Stderr, "FAIL:", msg)
		os.Exit(1)
	}
}

type Order struct {
	Customer string
	Items    []Item
	Notes    map[string]string
	Paid     bool
}
type Item struct {
	Name  string
	Qty   int
	Price float64
}

func (i Item) Total() float64 { return float64(i.Qty) * i.Price }

const tpl = `{{define "item"}}- {{.Name | upper}} x{{.Qty}} = {{printf "%.2f" .Total}}{{end -}}
Order for {{.Customer}}:
{{range $i, $it := .Items}}{{if $i}}
{{end}}{{template "item" $it}}{{end}}
{{if .Paid}}PAID{{else}}DUE{{end}} total={{printf "%.2f" (sum .Items)}}
{{with .Notes.gift}}gift: {{.}}{{else}}no gift{{end}}
{{len .Items}} items{{/* a comment */}}`

func main() {
	funcs := template.FuncMap{
		"upper": strings.ToUpper,
		"sum": func(items []Item) float64 {
			s := 0.0
			for _, i := range items {
				s += i.Total()
			}
			return s
		},
	}
	t := template.Must(template.New("order").Funcs(funcs).Parse(tpl))
	var buf bytes.Buffer
	err := t.Execute(&buf, Order{
		Customer: "Ada",
		Items:    []Item{{"widget", 2, 1.5}, {"gadget", 1, 10}},
		Notes:    map[string]string{"gift": "wrap it"},
		Paid:     true,
	})
	check(err == nil, fmt.Sprint("execute ", err))
	want := "Order for Ada:\n- WIDGET x2 = 3.00\n- GADGET x1 = 10.00\nPAID total=13.00\ngift: wrap it\n2 items"
	check(buf.String() == want, "output:\n"+buf.String())

	buf.Reset()
	check(t.Execute(&buf, Order{Customer: "Bob", Notes: map[string]string{}}) == nil, "empty")
	check(strings.Contains(buf.String(), "DUE total=0.00\nno gift\n0 items"), "empty output:\n"+buf.String())

	_, err = template.New("bad").Parse("{{.Foo")
	check(err != nil, "parse error")
	bad := template.Must(template.New("x").Option("missingkey=error").Parse("{{.nope}}"))
	check(bad.Execute(&buf, map[string]int{}) != nil, "missing key error")
	buf.Reset()
	t2 := template.Must(template.New("c").Parse(`{{range .}}{{if eq . 2}}two{{else if gt . 2}}big{{else}}{{.}}{{end}},{{end}}`))
	t2.Execute(&buf, []int{1, 2, 3})
	check(buf.String() == "1,two,big,", "comparisons "+buf.String())
	fmt.Println("OK")
}
