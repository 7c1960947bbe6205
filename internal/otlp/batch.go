package otlp

import (
	"context"
	"sync"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// batcher is the Exporter's span processor: spans that end gather in a
// slice under a lock and leave a batch at a time from a goroutine of its
// own, woken once a batch. The SDK's batch processor hands each span to
// its goroutine through a channel, a wake-up of that goroutine per span,
// which cost more than the rest of a span's start and end
// (docs/performance.md, Traces). At most queue spans wait; those that end
// past it are dropped and counted, as there.
type batcher struct {
	exp     sdktrace.SpanExporter
	size    int           // spans a request
	queue   int           // spans that may wait
	every   time.Duration // a batch not full leaves after it
	timeout time.Duration // one export's bound

	wake chan struct{} // (a batch is full)
	stop chan struct{}
	done chan struct{}
	// ctx is the exports' context; cancel ends an export Shutdown no
	// longer waits for.
	ctx    context.Context
	cancel context.CancelFunc

	mu      sync.Mutex
	pending []sdktrace.ReadOnlySpan
	ended   int64
	sent    int64
	err     error // the first export's error
}

func newBatcher(exp sdktrace.SpanExporter, queue, size int, every, timeout time.Duration) *batcher {
	ctx, cancel := context.WithCancel(context.Background())
	b := &batcher{exp: exp, size: size, queue: queue, every: every, timeout: timeout,
		wake: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{}), ctx: ctx, cancel: cancel}
	go b.loop()
	return b
}

// batchEvery is how long a batch that is not full waits to leave (the
// SDK's default).
const batchEvery = 5 * time.Second

func (b *batcher) OnStart(context.Context, sdktrace.ReadWriteSpan) {}

func (b *batcher) OnEnd(s sdktrace.ReadOnlySpan) {
	if !s.SpanContext().IsSampled() {
		return
	}
	b.mu.Lock()
	b.ended++
	if len(b.pending) < b.queue {
		b.pending = append(b.pending, s)
	}
	full := len(b.pending) == b.size
	b.mu.Unlock()
	if full {
		select {
		case b.wake <- struct{}{}:
		default:
		}
	}
}

func (b *batcher) loop() {
	defer close(b.done)
	timer := time.NewTimer(b.every)
	defer timer.Stop()
	for {
		select {
		case <-b.stop:
			return
		case <-b.wake:
		case <-timer.C:
		}
		for b.sendBatch(b.ctx) == b.size {
		}
		timer.Reset(b.every)
	}
}

// sendBatch sends up to size of the spans waiting, and returns how many
// it took.
func (b *batcher) sendBatch(ctx context.Context) int {
	b.mu.Lock()
	n := min(len(b.pending), b.size)
	out := make([]sdktrace.ReadOnlySpan, n)
	copy(out, b.pending)
	rest := copy(b.pending, b.pending[n:])
	clear(b.pending[rest:])
	b.pending = b.pending[:rest]
	b.mu.Unlock()
	if n == 0 {
		return 0
	}
	ctx, cancel := context.WithTimeout(ctx, b.timeout)
	err := b.exp.ExportSpans(ctx, out)
	cancel()
	b.mu.Lock()
	if err == nil {
		b.sent += int64(n)
	} else if b.err == nil {
		b.err = err
	}
	b.mu.Unlock()
	return n
}

// Shutdown sends what waits, within ctx, and shuts the exporter down.
func (b *batcher) Shutdown(ctx context.Context) error {
	close(b.stop)
	select {
	case <-b.done:
	case <-ctx.Done():
		b.cancel() // (the loop's export gives up)
		<-b.done
		return ctx.Err()
	}
	for b.sendBatch(ctx) > 0 && ctx.Err() == nil {
	}
	b.cancel()
	return b.exp.Shutdown(ctx)
}

// ForceFlush sends what waits, within ctx.
func (b *batcher) ForceFlush(ctx context.Context) error {
	for b.sendBatch(ctx) > 0 && ctx.Err() == nil {
	}
	return ctx.Err()
}

// counts are how many spans ended and how many were sent, and the first
// export's error.
func (b *batcher) counts() (ended, sent int64, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.ended, b.sent, b.err
}
