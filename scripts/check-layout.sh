#!/usr/bin/env bash
# Enforces the layering rules of ext-async; exits 1 when any rule is broken.
# Usage: scripts/check-layout.sh [SRC_DIR]        (default: the repository root)
#
# Layers, lowest first: abi 0, core 1, reactor 2, classes 3, hooks 4, module 5. A file's layer
# is its folder (core/, reactor/, classes/, hooks/); a file at the root (the spine) has the layer
# docs/architecture.md's spine table gives it (the rows between "<!-- spine" and
# "<!-- /spine -->": "| `file`, `file` | layer |"). No other list says which layer a file is in.
#
# Checks (each prints "ok   <check>" or "FAIL <check>" and one indented line per violation):
#   floor-plan         every C file and header at the root is in the spine table (the generated
#                      *_arginfo.h beside a root stub and configure's config.h excepted), every
#                      row names a file that exists, and the folders hold only C, headers, stubs
#   upward             an object references a global symbol defined in an object of a higher layer
#                      (nm on the objects of each folder's .libs/, else the .o beside the .c; no
#                      objects = failure; a .c without an object fails too)
#   sources            config.m4, config.w32 and the *.c files on disk list the same sources
#   declared-once      a prototype / extern variable is declared in one header only, and no .c
#                      declares what a header declares or another .c defines
#   file-size          no *.c / *.h over $MAX_LINES lines (generated *_arginfo.h excepted)
#   uv-header          <uv.h> is included, and ASYNC_REACTOR_UV (libuv's side of reactor.h) is
#                      defined, only by $UV_ALLOWED
#   stubs              X.stub.php <-> X.c beside it includes X_arginfo.h, and no other .c includes it
#   per-request-state  file-scope static variables carry a "/* per-process: " marker
#   refs               every P<n> / §<n> cited in a comment has a "## P<n> " / "## §<n> " heading
#                      in docs/pitfalls.md / docs/semantics.md
#   names              a name says its reach: every global symbol the objects define is the ABI's
#                      (zend_async_*, zend_*, declared in zend_async_API.h), an installed header's
#                      (the headers config.m4's PHP_INSTALL_HEADERS names), made by PHP's macros
#                      (zif_, zim_, zm_, get_module, async_globals) or internal: async__*; a
#                      file-local function or variable (static) never starts with async_
# The C "parsing" is text-based (comments, literals and preprocessor lines dropped, brace bodies
# skipped). Output is sorted, so it can be diffed. Needs only bash, coreutils, grep, sed, awk
# (POSIX; gawk and mawk tested) and binutils nm.
set -uo pipefail

LAYER_DIRS="core reactor classes hooks"
MAX_LINES=1500
# The only files that may #include <uv.h> or define ASYNC_REACTOR_UV (shell patterns).
UV_ALLOWED="reactor/reactor.h libuv_reactor.c reactor/*.c"
# Made by configure in the source directory, not ours.
GENERATED_H="config.h confdefs.h"

export LC_ALL=C
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=${1:-$here/..}
if [ ! -d "$src" ]; then
	echo "check-layout: no such directory: $src" >&2
	exit 2
fi
cd "$src" || exit 2
shopt -s nullglob

c_files=(*.c)
h_files=()      # every header but configure's
decl_headers=() # the same without the generated *_arginfo.h
for d in $LAYER_DIRS; do c_files+=("$d"/*.c); done
for h in *.h core/*.h reactor/*.h classes/*.h hooks/*.h; do
	case " $GENERATED_H " in *" $h "*) continue ;; esac
	h_files+=("$h")
	case $h in *_arginfo.h) ;; *) decl_headers+=("$h") ;; esac
done

# The spine table: "file layer" lines.
spine_table() {
	[ -f docs/architecture.md ] || return
	awk '
		/^<!-- spine/ { on = 1; next }
		/^<!-- \/spine/ { on = 0 }
		on && /^\|/ {
			n = split($0, col, "|")
			if (n < 4) next
			files = col[2]; layer = col[3]; gsub(/[ \t`]/, "", layer)
			if (layer == "layer" || layer ~ /^-+$/) next
			m = split(files, f, ",")
			for (i = 1; i <= m; i++) { x = f[i]; gsub(/[ \t`]/, "", x); if (x != "") print x, layer }
		}' docs/architecture.md
}
SPINE=$(spine_table | tr '\n' ' ')

# A file (x.c, core/x.c, core/x.h, core/x.o) -> layer, for awk programs run with -v spine="$SPINE".
# shellcheck disable=SC2016
AWK_LAYER='
function layer(f,   n, t, i) {
	sub(/^\.\//, "", f)
	if (f ~ /^core\//) return "core"
	if (f ~ /^reactor\//) return "reactor"
	if (f ~ /^classes\//) return "classes"
	if (f ~ /^hooks\//) return "hooks"
	if (!spine_read) {
		spine_read = 1
		n = split(spine, t, " ")
		for (i = 1; i + 1 <= n; i += 2) spine_of[t[i]] = t[i + 1]
	}
	if (f in spine_of) return spine_of[f]
	return "unplaced"
}
function rank(l) { return index("abi core reactor classes hooks module", l) }
'

passed=0
failed=0
report() { # check-name violations (one per line; empty = ok)
	if [ -z "$2" ]; then
		echo "ok   $1"
		passed=$((passed + 1))
	else
		echo "FAIL $1"
		local l
		while IFS= read -r l; do printf '  %s\n' "$l"; done <<<"$2"
		failed=$((failed + 1))
	fi
}

# ---------------------------------------------------------------------------------------------
# 1. upward: references from the symbol tables.
check_upward() {
	local objs=(.libs/*.o) o c key d
	for d in $LAYER_DIRS; do objs+=("$d"/.libs/*.o); done
	if [ ${#objs[@]} -eq 0 ]; then
		objs=(*.o)
		for d in $LAYER_DIRS; do objs+=("$d"/*.o); done
	fi
	if [ ${#objs[@]} -eq 0 ]; then
		echo "no objects: build first (looked for .libs/*.o and *.o, at the root and in $LAYER_DIRS)"
		return
	fi
	local -A have_obj=()
	local use=()
	for o in "${objs[@]}"; do
		key=${o/.libs\//}
		key=${key%.o}
		if [ ! -f "$key.c" ]; then
			echo "check-layout: note: ignoring $o (no $key.c; stale object?)" >&2
			continue
		fi
		[ "$o" -ot "$key.c" ] && echo "check-layout: note: $o is older than $key.c (rebuild for exact results)" >&2
		have_obj[$key]=1
		use+=("$o")
	done
	{
		for c in "${c_files[@]}"; do
			[ -n "${have_obj[${c%.c}]:-}" ] || echo "M: ${c%.c}"
		done
		if [ ${#use[@]} -gt 0 ]; then
			nm -P -A -g --defined-only "${use[@]}" | sed 's/^/D/' || echo "E: nm failed on ${use[*]}"
			nm -P -A -u "${use[@]}" | sed 's/^/U/' || echo "E: nm failed on ${use[*]}"
		fi
	} | awk -v spine="$SPINE" "$AWK_LAYER"'
		{ kind = substr($1, 1, 1); obj = substr($1, 2); sub(/:$/, "", obj); sub(/\.libs\//, "", obj); sub(/\.o$/, "", obj) }
		kind == "M" { print $2 ".c: no object (build first)"; next }
		kind == "E" { $1 = ""; print substr($0, 2); next }
		NF < 2 { next }
		kind == "D" { def[$2] = def[$2] " " obj; next }
		kind == "U" { nu++; ub[nu] = obj; us[nu] = $2; next }
		END {
			for (i = 1; i <= nu; i++) {
				x = ub[i]; s = us[i]
				if (!(s in def)) continue
				n = split(def[s], ys, " ")
				for (k = 1; k <= n; k++) {
					y = ys[k]
					# a file outside the floor plan: the floor-plan check reports it
					if (layer(x ".c") == "unplaced" || layer(y ".c") == "unplaced") continue
					if (y != x && rank(layer(y ".c")) > rank(layer(x ".c")))
						print x ".c (" layer(x ".c") ") -> " y ".c (" layer(y ".c") "): " s
				}
			}
		}' | sort -u
}

# ---------------------------------------------------------------------------------------------
# 1b. floor-plan: the root holds the spine, the folders the layers.
check_floor_plan() {
	local f d
	local -A spine_file=()
	local name layer
	while read -r name layer; do
		[ -n "$name" ] || continue
		spine_file[$name]=$layer
		[ -f "$name" ] || echo "docs/architecture.md: the spine table names $name, which does not exist"
		case " abi core reactor classes hooks module " in *" $layer "*) ;; *) echo "docs/architecture.md: $name: no such layer: $layer" ;; esac
	done < <(spine_table)
	[ ${#spine_file[@]} -gt 0 ] || echo "docs/architecture.md: no spine table (rows between <!-- spine and <!-- /spine -->)"
	for f in *.c *.h; do
		case " $GENERATED_H " in *" $f "*) continue ;; esac
		case $f in *_arginfo.h) [ -f "${f%_arginfo.h}.stub.php" ] && continue ;; esac
		[ -n "${spine_file[$f]:-}" ] || echo "$f: at the root but not in the spine table (move it to its layer's folder)"
	done
	for d in $LAYER_DIRS; do
		[ -d "$d" ] || { echo "$d/: the layer folder is missing"; continue; }
		for f in "$d"/*; do
			case $f in *.c|*.h|*.stub.php|*.lo|*.dep) ;; *) echo "$f: not C, a header or a stub (a layer folder holds only those)" ;; esac
		done
	done
}

# ---------------------------------------------------------------------------------------------
# 2. sources: config.m4 / config.w32 / files on disk.
m4_sources() {
	awk '
		{ sub(/^[ \t]*dnl([ \t].*)?$/, ""); sub(/[ \t]dnl[ \t].*$/, ""); if ($0 ~ /^[ \t]*#/) next; all = all $0 "\n" }
		END {
			if (!match(all, /PHP_NEW_EXTENSION[ \t\n]*\([ \t\n]*\[?async\]?[ \t\n]*,[ \t\n]*/)) { print "!"; exit }
			rest = substr(all, RSTART + RLENGTH)
			if (substr(rest, 1, 1) == "[") { e = index(rest, "]"); list = substr(rest, 2, e - 2) }
			else { e = index(rest, ","); list = (e ? substr(rest, 1, e - 1) : rest) }
			n = split(list, t, /[ \t\n]+/)
			for (i = 1; i <= n; i++) if (t[i] ~ /\.c$/) print t[i]
		}' config.m4
}
w32_sources() {
	awk '
		function args(s,   i, c, d, q, out) { # s starts after "(": the text up to the matching ")"
			d = 1; q = 0; out = ""
			for (i = 1; i <= length(s); i++) {
				c = substr(s, i, 1)
				if (q) { if (c == "\\") { out = out c substr(s, i + 1, 1); i++; continue } if (c == "\"") q = 0 }
				else if (c == "\"") q = 1
				else if (c == "(") d++
				else if (c == ")") { d--; if (d == 0) return out }
				out = out c
			}
			return out
		}
		function cfiles(s, prefix,   n, t, i, lit) { # .c words inside the string literals of s
			while (match(s, /"[^"]*"/)) {
				lit = substr(s, RSTART + 1, RLENGTH - 2); s = substr(s, RSTART + RLENGTH)
				n = split(lit, t, /[ \t]+/)
				for (i = 1; i <= n; i++) if (t[i] ~ /\.c$/) print prefix t[i]
			}
		}
		{ sub(/(^|[ \t])\/\/.*$/, ""); all = all $0 "\n" }
		END {
			while (match(all, /\/\*/)) { e = index(substr(all, RSTART + 2), "*/"); all = substr(all, 1, RSTART - 1) (e ? substr(all, RSTART + e + 3) : "") }
			found = 0; s = all
			while (match(s, /(^|[^A-Za-z0-9_])EXTENSION[ \t\n]*\(/)) {
				s = substr(s, RSTART + RLENGTH); a = args(s)
				if (a !~ /^[ \t\n]*"async"[ \t\n]*,/) continue
				found = 1; sub(/^[ \t\n]*"async"[ \t\n]*,/, "", a)
				# only the second argument (the sources)
				if (match(a, /^[^,]*("[^"]*"[ \t\n+]*)+/)) cfiles(substr(a, 1, RLENGTH)); else cfiles(a)
			}
			s = all
			while (match(s, /(^|[^A-Za-z0-9_])ADD_SOURCES[ \t\n]*\(/)) {
				s = substr(s, RSTART + RLENGTH); a = args(s)
				if (a !~ /,[ \t\n]*"async"[ \t\n]*$/) continue
				sub(/,[ \t\n]*"async"[ \t\n]*$/, "", a)
				# the folder: configure_module_dirname + "/core" -> "core/"
				dir = a; sub(/,.*$/, "", dir); prefix = ""
				if (match(dir, /"\/[A-Za-z0-9_\/]+"/)) prefix = substr(dir, RSTART + 2, RLENGTH - 3) "/"
				sub(/^[^,]*,/, "", a)
				cfiles(a, prefix)
			}
			if (!found) print "!"
		}' config.w32
}
check_sources() {
	local m4 w32 c
	if [ ! -f config.m4 ]; then echo "config.m4: missing"; m4="!"; else m4=$(m4_sources); fi
	if [ ! -f config.w32 ]; then echo "config.w32: missing"; w32="!"; else w32=$(w32_sources); fi
	[ "$m4" = "!" ] && [ -f config.m4 ] && echo "config.m4: no PHP_NEW_EXTENSION(async, [...]) found"
	[ "$w32" = "!" ] && [ -f config.w32 ] && echo "config.w32: no EXTENSION(\"async\", \"...\") found"
	{
		# shellcheck disable=SC2001
		[ "$m4" != "!" ] && [ -n "$m4" ] && sed 's/^/m4 /' <<<"$m4"
		# shellcheck disable=SC2001
		[ "$w32" != "!" ] && [ -n "$w32" ] && sed 's/^/w32 /' <<<"$w32"
		for c in "${c_files[@]}"; do echo "disk $c"; done
	} | awk -v m4ok="$([ "$m4" != "!" ] && echo 1)" -v w32ok="$([ "$w32" != "!" ] && echo 1)" '
		{ seen[$1, $2]++; names[$2] = 1 }
		END {
			for (f in names) {
				if (seen["m4", f] > 1) print f ": listed " seen["m4", f] " times in config.m4"
				if (seen["w32", f] > 1) print f ": listed " seen["w32", f] " times in config.w32"
				if (!seen["disk", f]) {
					w = ""
					if (seen["m4", f]) w = "config.m4"
					if (seen["w32", f]) w = w (w ? " and " : "") "config.w32"
					print f ": listed in " w " but there is no such file"
					continue
				}
				if (m4ok && !seen["m4", f]) print f ": missing from config.m4 (PHP_NEW_EXTENSION)"
				if (w32ok && !seen["w32", f]) print f ": missing from config.w32 (EXTENSION/ADD_SOURCES)"
			}
		}' | sort
}

# ---------------------------------------------------------------------------------------------
# 3. declared-once. A small C scanner: comments and literals dropped, preprocessor lines
# skipped, brace bodies skipped; each file-scope statement is classified. Emits
#   DF/DV file line name key branch   a function prototype / an extern variable (declarations)
#   FF/FV file line name              a non-static function / variable definition (.c only)
# key/branch: innermost #if of the declaration and its branch, so "#if A decl #else decl #endif"
# counts once.
# shellcheck disable=SC2016 # an awk program
DECL_SCANNER='
function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
function lastident(s) { s = trim(s); if (match(s, /[A-Za-z_][A-Za-z0-9_]*$/)) return substr(s, RSTART, RLENGTH); return "" }
function hasword(s, w) { return (" " s " ") ~ ("[^A-Za-z0-9_]" w "[^A-Za-z0-9_]") }
function ismacro(n) { return n ~ /^[A-Z][A-Z0-9_]*$/ }
function iskeyword(n) { return n ~ /^(void|int|char|bool|long|short|unsigned|signed|float|double|const|volatile|struct|union|enum|return|sizeof|if|while|for|switch)$/ }
function closeparen(s, p,   d, i, c) { # index of the ")" matching the "(" at p
	d = 0
	for (i = p; i <= length(s); i++) { c = substr(s, i, 1); if (c == "(") d++; else if (c == ")") { d--; if (d == 0) return i } }
	return 0
}
function emit(kind, name, line) {
	if (name == "" || ismacro(name) || iskeyword(name)) return
	if (kind ~ /^D/) print kind, FILENAME, line, name, (sp ? FILENAME ":" ifl[sp] : FILENAME ":0"), (sp ? br[sp] : 0)
	else if (isc) print kind, FILENAME, line, name
}
function variable(s, line, ext, fnptr,   n, t, i, p) {
	if (fnptr != "") { emit(ext ? "DV" : "FV", fnptr, line); return }
	if (s ~ /^[ \t]*(struct|union|enum)[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*$/) return
	p = index(s, "="); if (p) s = substr(s, 1, p - 1)
	gsub(/\[[^]]*\]/, "", s)
	n = split(s, t, ",")
	for (i = 1; i <= n; i++) emit(ext ? "DV" : "FV", lastident(t[i]), line)
}
# A statement ended by ";" (isdef = 0) or the head of a "{" body (isdef = 1). Returns 1 when the
# body is a function body.
function statement(s, line, isdef,   ext, p, q, pre, post, nm, e, rest) {
	s = trim(s)
	if (s == "") return 1
	if (hasword(s, "typedef")) return 0
	while (match(s, /__attribute__[ \t]*\(\(/)) { e = closeparen(s, RSTART + RLENGTH - 2); s = substr(s, 1, RSTART - 1) " " (e ? substr(s, e + 1) : "") }
	ext = hasword(s, "extern")
	if (hasword(s, "static")) return index(s, "(") && !index(s, "=")
	p = index(s, "("); q = index(s, "=")
	if (!p || (q && q < p)) { if (!isdef || q) variable(s, line, ext, ""); return 0 }
	# a function, a function pointer variable, or macros in front of one of them
	rest = s
	while ((p = index(rest, "(")) > 0) {
		pre = substr(rest, 1, p - 1); post = substr(rest, p + 1)
		if (post ~ /^[ \t]*\*/) { # (*name)(...)
			if (match(post, /^[ \t]*\*+[ \t]*(const[ \t]+)?[A-Za-z_][A-Za-z0-9_]*/)) {
				nm = lastident(substr(post, RSTART, RLENGTH))
				if (!isdef || index(s, "=")) variable("", line, ext, nm)
			}
			return 0
		}
		nm = lastident(pre)
		if (nm != "" && !ismacro(nm)) {
			if (iskeyword(nm)) return isdef
			emit(isdef ? "FF" : "DF", nm, line)
			return 1
		}
		e = closeparen(rest, p); if (!e) return isdef
		rest = substr(rest, e + 1)
	}
	return isdef
}
FNR == 1 { inc = 0; pp = 0; depth = 0; stmt = ""; sline = 0; tail = 0; body = 0; sp = 0; globals = 0; isc = (FILENAME ~ /\.c$/) }
{
	raw = $0
	# comments and literals out
	code = ""; i = 1; n = length(raw)
	while (i <= n) {
		if (inc) { j = index(substr(raw, i), "*/"); if (!j) break; i += j + 1; inc = 0; code = code " "; continue }
		if (!match(substr(raw, i), /\/\*|\/\/|["\047]/)) { code = code substr(raw, i); break }
		code = code substr(raw, i, RSTART - 1); i += RSTART - 1
		t = substr(raw, i, RLENGTH)
		if (t == "/*") { inc = 1; i += 2; continue }
		if (t == "//") break
		q = t; code = code q q; i++
		while (i <= n) { c = substr(raw, i, 1); i++; if (c == "\\") { i++; continue } if (c == q) break }
	}
	if (pp) { pp = (raw ~ /\\$/); next }
	if (code ~ /^[ \t]*#/) {
		pp = (raw ~ /\\$/)
		if (code ~ /^[ \t]*#[ \t]*if/) { sp++; ifl[sp] = FNR; br[sp] = 0 }
		else if (code ~ /^[ \t]*#[ \t]*(elif|else)/) { if (sp) br[sp]++ }
		else if (code ~ /^[ \t]*#[ \t]*endif/) { if (sp) sp-- }
		next
	}
	if (code ~ /ZEND_BEGIN_MODULE_GLOBALS[ \t]*\(/) { globals = 1; next }
	if (globals) { if (code ~ /ZEND_END_MODULE_GLOBALS[ \t]*\(/) globals = 0; next }
	i = 1; n = length(code)
	while (i <= n) {
		if (depth > 0) {
			if (!match(substr(code, i), /[{}]/)) break
			i += RSTART - 1; c = substr(code, i, 1); i++
			if (c == "{") depth++; else { depth--; if (depth == 0) { if (body) { stmt = ""; tail = 0 } else tail = 1 } }
			continue
		}
		if (!match(substr(code, i), /[{};]/)) { seg = substr(code, i); i = n + 1; c = "" }
		else { seg = substr(code, i, RSTART - 1); i += RSTART - 1; c = substr(code, i, 1); i++ }
		if (!tail) { if (trim(stmt) == "" && trim(seg) != "") sline = FNR; stmt = stmt seg }
		if (c == ";") { if (!tail) statement(stmt, sline, 0); stmt = ""; tail = 0 }
		else if (c == "{") {
			if (tail) { depth = 1; body = 0 }
			else if (trim(stmt) ~ /^extern[ \t]*""$/) { stmt = "" }  # extern "C" {
			else { body = statement(stmt, sline, 1); depth = 1; if (!body) stmt = "" }
		}
		else if (c == "}") { stmt = "" }  # closing extern "C"
		c = ""
	}
	if (depth == 0 && !tail) {
		# a macro used as a statement, without ";" (ZEND_GET_MODULE(async), PHP_FUNCTION(x) before
		# its body, SCHED_STUB(...) lines, BEGIN_EXTERN_C())
		if (trim(stmt) ~ /^[A-Z_][A-Z0-9_]*[ \t]*\(.*\)$/) stmt = ""
		else if (stmt != "") stmt = stmt " "
	}
}'
check_declared_once() {
	local files=("${decl_headers[@]}" "${c_files[@]}")
	[ ${#files[@]} -eq 0 ] && return
	awk "$DECL_SCANNER" "${files[@]}" | awk '
		$1 ~ /^D/ && $2 ~ /\.h$/ {
			name = $4; k = $5
			cnt[name, k, $6]++
			if (!((name, k) in best)) { nk[name]++; keys[name, nk[name]] = k; best[name, k] = 0 }
			if (cnt[name, k, $6] > best[name, k]) best[name, k] = cnt[name, k, $6]
			where[name] = where[name] (where[name] == "" ? "" : ", ") $2 ":" $3
			if (!(name in hdr)) hdr[name] = $2 ":" $3
			next
		}
		$1 ~ /^D/ { nd++; dfile[nd] = $2; dline[nd] = $3; dname[nd] = $4; dkind[nd] = $1; next }
		$1 ~ /^F/ { if (!(($4, $2) in defat)) { defat[$4, $2] = $3; defs[$4] = defs[$4] " " $2 } }
		END {
			for (name in nk) {
				total = 0
				for (i = 1; i <= nk[name]; i++) total += best[name, keys[name, i]]
				if (total > 1) print name ": declared " total " times in headers: " where[name]
			}
			for (i = 1; i <= nd; i++) {
				name = dname[i]; what = (dkind[i] == "DF" ? "prototype" : "extern variable")
				if (name in hdr) { print dfile[i] ":" dline[i] ": " what " " name " is already declared in " hdr[name] " (include the header)"; continue }
				n = split(defs[name], ys, " ")
				for (k = 1; k <= n; k++) if (ys[k] != dfile[i]) {
					print dfile[i] ":" dline[i] ": " what " " name " is defined in " ys[k] ":" defat[name, ys[k]] " (declare it in a header)"
					break
				}
			}
		}' | sort
}

# ---------------------------------------------------------------------------------------------
# 4. file-size
check_file_size() {
	local files=("${c_files[@]}" "${h_files[@]}")
	[ ${#files[@]} -eq 0 ] && return
	awk -v max="$MAX_LINES" '
		FNR == 1 && NR > 1 { out() }
		{ f = FILENAME; n = FNR }
		function out() { if (f !~ /_arginfo\.h$/ && n > max) print f ": " n " lines (max " max ")"; n = 0 }
		END { if (NR) out() }' "${files[@]}"
}

# ---------------------------------------------------------------------------------------------
# 5. uv-header
check_uv_header() {
	local files=("${c_files[@]}" "${h_files[@]}")
	[ ${#files[@]} -eq 0 ] && return
	local f p checked=() pats=()
	read -ra pats <<<"$UV_ALLOWED" # no globbing here
	for f in "${files[@]}"; do
		for p in "${pats[@]}"; do
			# shellcheck disable=SC2254
			case $f in $p) continue 2 ;; esac
		done
		checked+=("$f")
	done
	[ ${#checked[@]} -eq 0 ] && return
	grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]uv\.h[>"]' "${checked[@]}" /dev/null |
		awk -F: -v spine="$SPINE" -v allowed="$UV_ALLOWED" "$AWK_LAYER"'
			{ print $1 ":" $2 ": includes <uv.h> (" layer($1) " layer; only " allowed " may)" }'
	grep -nE '^[[:space:]]*#[[:space:]]*define[[:space:]]+ASYNC_REACTOR_UV' "${checked[@]}" /dev/null |
		awk -F: -v spine="$SPINE" -v allowed="$UV_ALLOWED" "$AWK_LAYER"'
			{ print $1 ":" $2 ": defines ASYNC_REACTOR_UV, libuv'"'"'s side of the reactor (" layer($1) " layer; only " allowed " may)" }'
}

# ---------------------------------------------------------------------------------------------
# 6. stubs
check_stubs() {
	local stubs=(*.stub.php) d
	for d in $LAYER_DIRS; do stubs+=("$d"/*.stub.php); done
	{
		printf 'STUB %s\n' "${stubs[@]}"
		printf 'C %s\n' "${c_files[@]}"
		# "file.c:line:#include "x_arginfo.h"" for each arginfo include
		[ ${#c_files[@]} -gt 0 ] &&
			grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"][^">]*_arginfo\.h[>"]' "${c_files[@]}" /dev/null
	} | awk '
		$1 == "STUB" && NF == 2 { ns++; stub[ns] = $2; next }
		$1 == "C" && NF == 2 { have[$2] = 1; next }
		{
			split($0, p, ":"); c = p[1]; line = p[2]
			inc = $0; sub(/[>"][^>"]*$/, "", inc); sub(/^.*[<"\/]/, "", inc)
			own = c; sub(/\.c$/, "_arginfo.h", own); sub(/^.*\//, "", own)
			incl[c, inc] = 1
			if (inc != own) print c ":" line ": includes " inc " (a .c includes only its own " own ")"
		}
		END {
			for (i = 1; i <= ns; i++) {
				x = stub[i]; sub(/\.stub\.php$/, "", x)
				b = x; sub(/^.*\//, "", b)
				if (!(x ".c" in have)) print stub[i] ": no " x ".c beside it (the file registering it must be named " b ".c)"
				else if (!((x ".c", b "_arginfo.h") in incl)) print stub[i] ": " x ".c does not include " b "_arginfo.h"
			}
		}' | sort
}

# ---------------------------------------------------------------------------------------------
# 7. per-request-state: file-scope statics need "/* per-process: " on their line or just above
# (the line before, or the comment block that ends there). Several declarations of one variable
# in a file (a tentative one, then the definition) need the marker once.
check_per_request_state() {
	[ ${#c_files[@]} -eq 0 ] && return
	awk '
		function nocomment(s) { gsub(/\/\*([^*]|\*+[^*\/])*\*+\//, " ", s); sub(/\/\/.*$/, "", s); sub(/\/\*.*$/, "", s); return s }
		function marked(f, k,   j) {
			if (index(L[f, k], "/* per-process: ")) return 1
			if (k > 1 && index(L[f, k - 1], "/* per-process: ")) return 1
			if (k > 1 && L[f, k - 1] ~ /\*\/[ \t]*$/ && L[f, k - 1] !~ /^[ \t]*\/\*/ ) {
				for (j = k - 1; j >= 1 && j > k - 60; j--) {  # up to the start of that comment
					if (L[f, j] ~ /^[ \t]*\/\*/) return index(L[f, j], "/* per-process: ") > 0
					if (L[f, j] !~ /^[ \t]*\*/ && j < k - 1) return 0
				}
			}
			return 0
		}
		FNR == 1 { nf++; F[nf] = FILENAME }
		{ L[FILENAME, FNR] = $0; N[FILENAME] = FNR }
		END {
			for (fi = 1; fi <= nf; fi++) {
				f = F[fi]
				for (k = 1; k <= N[f]; k++) {
					if (L[f, k] !~ /^static[ \t]/ || L[f, k] ~ /^static[ \t]+(const|zend_always_inline|inline)[ \t]/) continue
					text = nocomment(L[f, k]); last = k
					while (text !~ /[(=;{]/ && last < N[f] && last < k + 10) { last++; text = text " " nocomment(L[f, last]) }
					match(text, /[(=;{]/); c = substr(text, RSTART, 1)
					pre = substr(text, 1, RSTART - 1); post = substr(text, RSTART + 1)
					name = ""
					if (c == "(") {
						if (post !~ /^[ \t]*\*/) continue   # a function
						if (match(post, /[A-Za-z_][A-Za-z0-9_]*/)) name = substr(post, RSTART, RLENGTH)
					} else {
						sub(/\[.*$/, "", pre); sub(/,.*$/, "", pre)
						if (match(pre, /[A-Za-z_][A-Za-z0-9_]*[ \t]*$/)) name = substr(pre, RSTART, RLENGTH)
						sub(/[ \t]+$/, "", name)
					}
					if (name == "" || name ~ /^(struct|union|enum|static)$/) name = "@" k
					for (e = k; e < k + 200 && e <= N[f] && nocomment(L[f, e]) !~ /;/; e++) ;
					ok = marked(f, k) || (e <= N[f] && index(L[f, e], "/* per-process: "))
					if (!((f, name) in first)) { first[f, name] = k; order[++no] = f SUBSEP name }
					if (ok) good[f, name] = 1
				}
			}
			for (i = 1; i <= no; i++) {
				split(order[i], p, SUBSEP); f = p[1]; name = p[2]
				if ((f, name) in good) continue
				k = first[f, name]; line = L[f, k]; sub(/[ \t]+$/, "", line)
				if (length(line) > 90) line = substr(line, 1, 87) "..."
				print f ":" k ": " line "  <- no \"/* per-process: \" marker (per-request state belongs in ASYNC_G)"
			}
		}' "${c_files[@]}"
}

# ---------------------------------------------------------------------------------------------
# 9. names: the prefix says the reach (docs/architecture.md, "Names").
installed_headers() {
	sed -n 's/.*PHP_INSTALL_HEADERS(\[ext\/async\], *\[\([^]]*\)\]).*/\1/p' config.m4 2>/dev/null
}
check_names() {
	local objs=(.libs/*.o) d h
	for d in $LAYER_DIRS; do objs+=("$d"/.libs/*.o); done
	if [ ${#objs[@]} -eq 0 ]; then
		objs=(*.o)
		for d in $LAYER_DIRS; do objs+=("$d"/*.o); done
	fi
	[ ${#objs[@]} -eq 0 ] && { echo "no objects: build first"; return; }
	local public=()
	for h in $(installed_headers); do [ -f "$h" ] && public+=("$h"); done
	[ ${#public[@]} -eq 0 ] && { echo "config.m4 names no installed header (PHP_INSTALL_HEADERS)"; return; }
	{
		{
			# the names the installed headers declare
			grep -ohE '\b[A-Za-z_][A-Za-z0-9_]*\b' "${public[@]}" | sort -u | sed 's/^/P /'
			nm -P -A --defined-only "${objs[@]}" | awk '{ o = $1; sub(/:$/, "", o); sub(/\.libs\//, "", o); print "S", o, $2, $3 }'
		} | awk '
			$1 == "P" { pub[$2] = 1; next }
			$1 == "S" {
				obj = $2; name = $3; type = $4
				if (type ~ /^[TDBRVW]$/) {
					if (name ~ /^async__/ || (name in pub)) next
					if (name ~ /^(zif_|zim_|zm_)/ || name == "get_module" || name == "async_globals") next
					print obj ": " name ": a global name is async__* (internal) or declared in an installed header"
				}
			}'
		# file-local (static) names, read from the sources: objects built with LTO keep no local
		# symbols; a static inline in a header that is not installed is shared, so async__*
		local hdrs=() c
		for h in "${decl_headers[@]}"; do
			case " ${public[*]} " in *" $h "*) ;; *) hdrs+=("$h") ;; esac
		done
		for c in "${c_files[@]}"; do
			grep -nE '^static[^(=;]*[ *]async_[A-Za-z0-9_]*[ \t]*[(=;[]' "$c" | grep -vE '^[0-9]+:static[^(]*\((ZEND|PHP)_' |
				sed -E "s|^([0-9]+):static[^(=;]*[ *](async_[A-Za-z0-9_]*)[ \t]*[(=;[].*|$c:\1: \2: a file-local name does not start with async_|"
		done
		[ ${#hdrs[@]} -gt 0 ] && grep -nE '^static[ \t]+(zend_always_inline|inline)[^(]*[ *]async_[a-z0-9][A-Za-z0-9_]*[ \t]*\(' "${hdrs[@]}" |
			sed -E 's|^([^:]+:[0-9]+):static[^(]*[ *](async_[A-Za-z0-9_]*)[ \t]*\(.*|\1: \2: an inline function of an internal header is async__*|'
	} | sort -u
}

# ---------------------------------------------------------------------------------------------
# 8. refs: P<n> and §<n> cited in comments need a heading in the docs.
headings() { # docs-file tag -> "tag <first word after "## ">" for each heading
	[ -f "$1" ] && awk -v tag="$2" '$1 == "##" && NF >= 2 { print tag, $2 }' "$1"
}
check_refs() {
	local files=("${c_files[@]}" "${h_files[@]}")
	[ ${#files[@]} -eq 0 ] && return
	{
		[ -f docs/pitfalls.md ] && echo "HAVE pitfalls"
		[ -f docs/semantics.md ] && echo "HAVE semantics"
		headings docs/pitfalls.md HP
		headings docs/semantics.md HS
		echo "FILES"
		awk '
			function cite(seg, prior,   s, st, len, tok, prev, nx, ctx) {
				s = seg; prev = ""
				while (match(s, /P[0-9]+/)) {
					st = RSTART; len = RLENGTH; tok = substr(s, st, len)
					if (st > 1) prev = substr(s, st - 1, 1)
					nx = substr(s, st + len, 1)
					if (prev !~ /[A-Za-z0-9_]/ && nx !~ /[A-Za-z0-9_]/) print "P", FILENAME, FNR, tok
					prev = substr(s, st + len - 1, 1); s = substr(s, st + len)
				}
				s = seg; ctx = tolower(prior)
				while (match(s, /§[0-9]+[a-z]?(\.[0-9]+[a-z]?)*/)) {
					tok = substr(s, RSTART, RLENGTH)
					print (index(ctx tolower(substr(s, 1, RSTART - 1)), "pitfalls") ? "SP" : "S"), FILENAME, FNR, tok
					ctx = ctx tolower(substr(s, 1, RSTART + RLENGTH - 1)); s = substr(s, RSTART + RLENGTH)
				}
			}
			FNR == 1 { inc = 0; ctext = "" }
			{
				line = $0; i = 1; n = length(line)
				while (i <= n) {
					if (inc) {
						j = index(substr(line, i), "*/")
						if (!j) { seg = substr(line, i); cite(seg, ctext); ctext = ctext seg " "; break }
						seg = substr(line, i, j - 1); cite(seg, ctext); ctext = ""; inc = 0; i += j + 1; continue
					}
					if (!match(substr(line, i), /\/\*|\/\/|["\047]/)) break
					i += RSTART - 1; t = substr(line, i, RLENGTH)
					if (t == "/*") { inc = 1; ctext = ""; i += 2; continue }
					if (t == "//") { cite(substr(line, i + 2), ""); break }
					i++
					while (i <= n) { c = substr(line, i, 1); i++; if (c == "\\") { i++; continue } if (c == t) break }
				}
			}' "${files[@]}"
	} | awk '
		$1 == "HAVE" { have[$2] = 1; next }
		$1 == "HP" { hp[$2] = 1; next }
		$1 == "HS" { hs[$2] = 1; next }
		$1 == "FILES" { next }
		{
			where = $2 ":" $3 ": " $4 ": "
			if ($1 == "P") {
				if (!have["pitfalls"]) print where "docs/pitfalls.md does not exist"
				else if (!($4 in hp)) print where "no \"## " $4 " \" heading in docs/pitfalls.md"
			} else if ($1 == "SP") {
				if (!have["pitfalls"]) print where "docs/pitfalls.md does not exist (cited as a pitfalls section)"
				else if (!($4 in hp)) print where "no \"## " $4 " \" heading in docs/pitfalls.md (cited as a pitfalls section)"
			} else if (!($4 in hs) && !($4 in hp)) {
				if (!have["semantics"] && !have["pitfalls"]) print where "docs/semantics.md and docs/pitfalls.md do not exist"
				else print where "no \"## " $4 " \" heading in docs/semantics.md or docs/pitfalls.md"
			}
		}'
}

# ---------------------------------------------------------------------------------------------
report floor-plan "$(check_floor_plan)"
report upward "$(check_upward)"
report sources "$(check_sources)"
report declared-once "$(check_declared_once)"
report file-size "$(check_file_size)"
report uv-header "$(check_uv_header)"
report stubs "$(check_stubs)"
report per-request-state "$(check_per_request_state)"
report refs "$(check_refs)"
report names "$(check_names)"
echo "check-layout: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
