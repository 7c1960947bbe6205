package repo

import (
	"fmt"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/golden"
)

// apiListing is the record of the exported API of the public packages
// (isPublic), one line per exported declaration, method and field, as Go
// keeps api/go1.*.txt.
var apiListing = filepath.Join("api", "agentfmt.txt")

// apiUpdate is the command that rewrites apiListing.
const apiUpdate = "go test ./internal/repo -run TestAPIListing -update"

// TestAPIListing: the exported API of the public packages is what
// api/agentfmt.txt records. A change to the API is a change to that file
// too, so that it shows in review and in CHANGELOG.md; -update rewrites it.
func TestAPIListing(t *testing.T) {
	_, imp, public := loadPublic(t)
	var lines []string
	for _, p := range public {
		pkg, err := imp.Import(p.ImportPath)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, apiLines(pkg)...)
	}
	sort.Strings(lines)
	lines = slices.Compact(lines)
	got := strings.Join(lines, "\n") + "\n"
	if golden.Update() {
		if err := os.WriteFile(filepath.Join(root, apiListing), []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(filepath.Join(root, apiListing))
	if err != nil {
		t.Fatalf("%v: `%s` writes it", err, apiUpdate)
	}
	added, removed := setDiff(lines, strings.Split(strings.TrimSuffix(string(b), "\n"), "\n"))
	if len(added)+len(removed) > 0 {
		var msg strings.Builder
		fmt.Fprintf(&msg, "the exported API differs from %s: %d added (+), %d removed (-).\n", apiListing, len(added), len(removed))
		fmt.Fprintf(&msg, "If the change is meant, run at the repository's root\n\t%s\nto rewrite the listing, and commit it (say what changed in CHANGELOG.md).\n", apiUpdate)
		for _, l := range added {
			fmt.Fprintf(&msg, "+ %s\n", l)
		}
		for _, l := range removed {
			fmt.Fprintf(&msg, "- %s\n", l)
		}
		t.Error(msg.String())
	} else if got != string(b) {
		t.Errorf("%s is not sorted or repeats a line: `%s` rewrites it", apiListing, apiUpdate)
	}
}

// setDiff is what got has that want lacks, and what want has that got
// lacks, each sorted.
func setDiff(got, want []string) (added, removed []string) {
	in := func(l []string) map[string]bool {
		m := make(map[string]bool, len(l))
		for _, s := range l {
			m[s] = true
		}
		return m
	}
	g, w := in(got), in(want)
	for _, s := range got {
		if !w[s] {
			added = append(added, s)
		}
	}
	for _, s := range want {
		if !g[s] && s != "" {
			removed = append(removed, s)
		}
	}
	sort.Strings(added)
	sort.Strings(removed)
	return added, removed
}

// apiLines lists the exported API of pkg, as Go's api files do:
//
//	pkg streaming, func NewSession(Handler, Options) *Session
//	pkg streaming, method (*Session) Push(*Event) error
//	pkg streaming, type Event struct, Kind Kind
//	pkg streaming, const KindPlan Kind = "plan"
//
// Types of other packages of the module are named by their path in it
// (render.Config), those of other modules by their import path.
// Parameter names are left out: renaming one changes no caller.
func apiLines(pkg *types.Package) []string {
	const mod = "github.com/agentfmt/agentfmt/"
	prefix := "pkg " + strings.TrimPrefix(pkg.Path(), mod) + ", "
	qual := func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		return strings.TrimPrefix(p.Path(), mod)
	}
	str := func(t types.Type) string { return types.TypeString(t, qual) }
	var out []string
	add := func(format string, args ...any) { out = append(out, prefix+fmt.Sprintf(format, args...)) }
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		switch obj := obj.(type) {
		case *types.Const:
			add("const %s %s = %s", name, str(obj.Type()), obj.Val().ExactString())
		case *types.Var:
			add("var %s %s", name, str(obj.Type()))
		case *types.Func:
			sig := obj.Type().(*types.Signature)
			add("func %s%s%s", name, typeParams(sig.TypeParams(), str), signature(sig, str))
		case *types.TypeName:
			typeLines(obj, str, add)
		}
	}
	return out
}

// typeLines lists an exported type: its declaration, its exported fields
// or interface methods, and the exported methods declared on it.
func typeLines(obj *types.TypeName, str func(types.Type) string, add func(string, ...any)) {
	name := obj.Name()
	if obj.IsAlias() {
		add("type %s = %s", name, str(types.Unalias(obj.Type())))
		return
	}
	named, ok := obj.Type().(*types.Named)
	if !ok {
		add("type %s %s", name, str(obj.Type().Underlying()))
		return
	}
	decl := name + typeParams(named.TypeParams(), str)
	switch u := named.Underlying().(type) {
	case *types.Struct:
		add("type %s struct", decl)
		for i := 0; i < u.NumFields(); i++ {
			f := u.Field(i)
			switch {
			case !f.Exported():
			case f.Embedded():
				add("type %s struct, embedded %s", decl, str(f.Type()))
			default:
				add("type %s struct, %s %s", decl, f.Name(), str(f.Type()))
			}
		}
	case *types.Interface:
		add("type %s interface", decl)
		for i := 0; i < u.NumEmbeddeds(); i++ {
			add("type %s interface, embedded %s", decl, str(u.EmbeddedType(i)))
		}
		for i := 0; i < u.NumExplicitMethods(); i++ {
			if m := u.ExplicitMethod(i); m.Exported() {
				add("type %s interface, %s%s", decl, m.Name(), signature(m.Type().(*types.Signature), str))
			} else {
				add("type %s interface, unexported methods", decl)
			}
		}
	case *types.Signature:
		add("type %s func%s", decl, signature(u, str))
	default:
		add("type %s %s", decl, str(u))
	}
	for i := 0; i < named.NumMethods(); i++ {
		m := named.Method(i)
		if !m.Exported() {
			continue
		}
		sig := m.Type().(*types.Signature)
		recv := name
		if _, ptr := sig.Recv().Type().(*types.Pointer); ptr {
			recv = "*" + name
		}
		add("method (%s) %s%s", recv, m.Name(), signature(sig, str))
	}
}

// signature writes a function's parameters and results without their
// names: (Handler, Options) *Session.
func signature(sig *types.Signature, str func(types.Type) string) string {
	tuple := func(t *types.Tuple, variadic bool) []string {
		var s []string
		for i := 0; i < t.Len(); i++ {
			typ := t.At(i).Type()
			if variadic && i == t.Len()-1 {
				s = append(s, "..."+str(typ.(*types.Slice).Elem()))
				continue
			}
			s = append(s, str(typ))
		}
		return s
	}
	out := "(" + strings.Join(tuple(sig.Params(), sig.Variadic()), ", ") + ")"
	switch res := tuple(sig.Results(), false); len(res) {
	case 0:
	case 1:
		out += " " + res[0]
	default:
		out += " (" + strings.Join(res, ", ") + ")"
	}
	return out
}

// typeParams writes a type parameter list, [V any], or nothing.
func typeParams(l *types.TypeParamList, str func(types.Type) string) string {
	if l.Len() == 0 {
		return ""
	}
	var s []string
	for i := 0; i < l.Len(); i++ {
		s = append(s, l.At(i).Obj().Name()+" "+str(l.At(i).Constraint()))
	}
	return "[" + strings.Join(s, ", ") + "]"
}
