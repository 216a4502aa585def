// net/http without TCP: an HTTP server on a Unix socket in the working directory, a client dialing it,
// JSON handlers, routing with ServeMux, headers and status codes; plus httptest.ResponseRecorder.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"time"
)

func check(ok bool, msg string) {
	if !ok {
		fmt.Fprintln(os.Stderr, "FAIL:", msg)
		os.Exit(1)
	}
}

func main() {
	mux := http.NewServeMux()
	mux.HandleFunc("/hello", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Test", "yes")
		fmt.Fprintf(w, "hello %s", r.URL.Query().Get("name"))
	})
	mux.HandleFunc("/sum", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		var nums []int
		if err := json.NewDecoder(r.Body).Decode(&nums); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		s := 0
		for _, n := range nums {
			s += n
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]int{"sum": s})
	})

	os.Remove("http.sock")
	ln, err := net.Listen("unix", "http.sock")
	check(err == nil, fmt.Sprint("listen ", err))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 2 * time.Second}
	go srv.Serve(ln)

	client := &http.Client{
		Timeout: 3 * time.Second,
		Transport: &http.Transport{
			DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
				var d net.Dialer
				return d.DialContext(ctx, "unix", "http.sock")
			},
		},
	}
	resp, err := client.Get("http://unix/hello?name=gopher")
	check(err == nil, fmt.Sprint("get ", err))
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	check(resp.StatusCode == 200 && string(body) == "hello gopher" && resp.Header.Get("X-Test") == "yes", "hello")

	for i := 0; i < 5; i++ { // keep-alive reuse
		resp, err = client.Post("http://unix/sum", "application/json", strings.NewReader(fmt.Sprintf("[1,2,3,%d]", i)))
		check(err == nil, "post")
		var out map[string]int
		check(json.NewDecoder(resp.Body).Decode(&out) == nil && out["sum"] == 6+i, "sum")
		resp.Body.Close()
	}
	resp, err = client.Get("http://unix/sum")
	check(err == nil && resp.StatusCode == 405, "405")
	resp.Body.Close()
	resp, err = client.Get("http://unix/nowhere")
	check(err == nil && resp.StatusCode == 404, "404")
	resp.Body.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	check(srv.Shutdown(ctx) == nil, "shutdown")

	rec := httptest.NewRecorder()
	req := httptest.NewRequest("POST", "/sum", strings.NewReader("not json"))
	mux.ServeHTTP(rec, req)
	check(rec.Code == 400, "recorder 400")
	fmt.Println("OK")
}
