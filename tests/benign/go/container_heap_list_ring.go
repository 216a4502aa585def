// container/heap (a priority queue with update), container/list and container/ring; Dijkstra on a small graph.
package main

import (
	"container/heap"
	"container/list"
	"container/ring"
	"fmt"
	"os"
)

func check(ok bool, msg string) {
	if !ok {
		fmt.Fprintln(os.Stderr, "FAIL:", msg)
		os.Exit(1)
	}
}

type IntHeap []int

func (h IntHeap) Len() int            { return len(h) }
func (h IntHeap) Less(i, j int) bool  { return h[i] < h[j] }
func (h IntHeap) Swap(i, j int)       { h[i], h[j] = h[j], h[i] }
func (h *IntHeap) Push(x interface{}) { *h = append(*h, x.(int)) }
func (h *IntHeap) Pop() interface{} {
	old := *h
	n := len(old)
	x := old[n-1]
	*h = old[:n-1]
	return x
}

type Item struct {
	node, dist, index int
}
type PQ []*Item

func (pq PQ) Len() int            { return len(pq) }
func (pq PQ) Less(i, j int) bool  { return pq[i].dist < pq[j].dist }
func (pq PQ) Swap(i, j int)       { pq[i], pq[j] = pq[j], pq[i]; pq[i].index = i; pq[j].index = j }
func (pq *PQ) Push(x interface{}) { it := x.(*Item); it.index = len(*pq); *pq = append(*pq, it) }
func (pq *PQ) Pop() interface{} {
	old := *pq
	n := len(old)
	it := old[n-1]
	*pq = old[:n-1]
	return it
}

func dijkstra(adj map[int][][2]int, src, n int) []int {
	const inf = 1 << 60
	dist := make([]int, n)
	items := make([]*Item, n)
	pq := PQ{}
	for i := range dist {
		dist[i] = inf
		items[i] = &Item{node: i, dist: inf}
		heap.Push(&pq, items[i])
	}
	dist[src] = 0
	items[src].dist = 0
	heap.Fix(&pq, items[src].index)
	for pq.Len() > 0 {
		u := heap.Pop(&pq).(*Item)
		for _, e := range adj[u.node] {
			if nd := u.dist + e[1]; nd < dist[e[0]] {
				dist[e[0]] = nd
				items[e[0]].dist = nd
				heap.Fix(&pq, items[e[0]].index)
			}
		}
	}
	return dist
}

func main() {
	h := &IntHeap{5, 2, 8}
	heap.Init(h)
	heap.Push(h, 3)
	heap.Push(h, 1)
	var out []int
	for h.Len() > 0 {
		out = append(out, heap.Pop(h).(int))
	}
	check(fmt.Sprint(out) == "[1 2 3 5 8]", "heap order")

	adj := map[int][][2]int{0: {{1, 4}, {2, 1}}, 2: {{1, 2}, {3, 5}}, 1: {{3, 1}}}
	d := dijkstra(adj, 0, 4)
	check(fmt.Sprint(d) == "[0 3 1 4]", "dijkstra")

	l := list.New()
	e4 := l.PushBack(4)
	l.PushFront(1)
	l.InsertBefore(3, e4)
	l.InsertAfter(5, e4)
	l.MoveToFront(e4)
	var vals []int
	for e := l.Front(); e != nil; e = e.Next() {
		vals = append(vals, e.Value.(int))
	}
	check(fmt.Sprint(vals) == "[4 1 3 5]" && l.Len() == 4, "list")
	l.Remove(e4)
	check(l.Front().Value.(int) == 1 && l.Back().Value.(int) == 5, "list remove")

	r := ring.New(5)
	for i := 0; i < r.Len(); i++ {
		r.Value = i
		r = r.Next()
	}
	sum := 0
	r.Do(func(v interface{}) { sum += v.(int) })
	check(sum == 10 && r.Move(2).Value.(int) == 2, "ring")
	fmt.Println("OK")
}
