package streaming

import "hash/maphash"

// ring remembers the last n ids put in it, each with a value, by a 64-bit
// hash of the id (no copy of the id is kept; two ids of one run sharing a
// hash is a chance of one in 2^64 per pair). It bounds what a session
// remembers of a run that lasts hours.
type ring[V any] struct {
	ids  []uint64
	set  map[uint64]V
	next int
	seed maphash.Seed
}

func newRing[V any](n int) ring[V] {
	return ring[V]{ids: make([]uint64, 0, n), set: make(map[uint64]V, n), seed: maphash.MakeSeed()}
}

// put remembers id with v (replacing its value if it is remembered),
// forgetting the oldest id when the ring is full.
func (r *ring[V]) put(id string, v V) {
	h := maphash.String(r.seed, id)
	if _, ok := r.set[h]; ok {
		r.set[h] = v
		return
	}
	if len(r.ids) < cap(r.ids) {
		r.ids = append(r.ids, h)
	} else {
		delete(r.set, r.ids[r.next])
		r.ids[r.next] = h
		r.next = (r.next + 1) % len(r.ids)
	}
	r.set[h] = v
}

func (r *ring[V]) get(id string) (V, bool) {
	v, ok := r.set[maphash.String(r.seed, id)]
	return v, ok
}

func (r *ring[V]) has(id string) bool {
	_, ok := r.get(id)
	return ok
}

// reset forgets every id (a new run).
func (r *ring[V]) reset() {
	r.ids = r.ids[:0]
	r.next = 0
	clear(r.set)
}
