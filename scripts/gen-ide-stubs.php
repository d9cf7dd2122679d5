<?php
/*
 * scripts/gen-ide-stubs.php — IDE stubs, one PHP file per namespace (stubs/Async.php,
 * stubs/global.php), from the extension's *.stub.php files (the declarations arginfo is made
 * from). Each declaration keeps its own doc comment; one that has none gets the sentence the API
 * spec gives it, when the spec is at hand (SPEC=path/to/api.md, default ../shared/spec/api.md).
 *   php scripts/gen-ide-stubs.php            # rewrite stubs/
 *   php scripts/gen-ide-stubs.php --check    # exit 1 when stubs/ lacks a declaration of *.stub.php
 */
$root = dirname(__DIR__);
$check = in_array('--check', $argv, true);
$specPath = getenv('SPEC') ?: "$root/../shared/spec/api.md";

/* What the spec says of functions (table rows) and methods (signature comments in class sections). */
$docs = [];
if (is_file($specPath)) {
    $class = null;
    foreach (file($specPath, FILE_IGNORE_NEW_LINES) as $line) {
        if (preg_match('/^#{2,4} [\d.]* ?`(?:final |abstract )?(?:class|interface|enum) (\w+)/', $line, $m)) {
            $class = $m[1];
        } elseif (preg_match('/^#{1,3} /', $line)) {
            $class = null;
        }
        if (preg_match('/^\| `(\w+)\(.*?\)[^`]*` \| (.+?) \|$/', $line, $m) && !isset($docs[$m[1]])) {
            $docs[$m[1]] = $m[2];
        } elseif ($class !== null && preg_match('/^\s*public (?:static )?function (\w+)\(.*?\).*?;\s*\/\/\s*(.+)$/', $line, $m)) {
            $docs["$class::$m[1]"] ??= $m[2];
        }
    }
}

/* Doc comment text for a spec sentence: markdown code spans and emphasis become plain text. */
function doc_comment(string $text, string $indent): string
{
    $text = str_replace(['**', '`', '*/'], ['', '', '* /'], $text);
    $lines = explode("\n", wordwrap($text, 96 - strlen($indent)));
    return $indent . "/**\n" . implode('', array_map(fn($l) => "$indent * $l\n", $lines)) . "$indent */\n";
}

/* Annotations that only drive gen_stub.php (arginfo generation). */
function clean_comment(string $c): ?string
{
    $c = preg_replace('/^\s*(?:\/\*\*)?\s*\*?\s*@(generate-class-entries|generate-function-entries|strict-properties|not-serializable|implementation-alias|tentative-return-type|cvalue|refcount|compile-time-eval|frameless-function|undocumentable)\b.*$/m', '', $c);
    $body = trim(preg_replace('~^/\*\*|\*/$~', '', trim($c)));
    $body = trim(preg_replace('/^\s*\*\s?/m', '', $body));
    return $body === '' ? null : $c;
}

$byNs = [];
$decls = [];
foreach (array_merge(glob("$root/*.stub.php"), glob("$root/{core,reactor,classes,hooks}/*.stub.php", GLOB_BRACE)) as $file) {
    $tokens = token_get_all(file_get_contents($file));
    $ns = '';
    $depth = 0;
    $nsDepth = null;
    $class = null;
    $classDepth = null;
    $pendingDoc = null;
    $out = '';
    $flush = function () use (&$out, &$byNs, &$ns) {
        if (trim($out) !== '') {
            $byNs[$ns][] = rtrim($out) . "\n";
        }
        $out = '';
    };
    for ($i = 0, $n = count($tokens); $i < $n; $i++) {
        $t = $tokens[$i];
        $id = is_array($t) ? $t[0] : null;
        $text = is_array($t) ? $t[1] : $t;
        if ($id === T_OPEN_TAG) {
            continue;
        }
        if ($id === T_NAMESPACE) {
            $flush();
            $pendingDoc = null;
            $name = '';
            for ($i++; $i < $n && $tokens[$i] !== ';' && $tokens[$i] !== '{'; $i++) {
                $name .= is_array($tokens[$i]) ? $tokens[$i][1] : $tokens[$i];
            }
            $ns = trim($name);
            if ($tokens[$i] === '{') {
                $nsDepth = $depth;
                $depth++;
            }
            continue;
        }
        if ($text === '{' || $id === T_CURLY_OPEN || $id === T_DOLLAR_OPEN_CURLY_BRACES) {
            $depth++;
        } elseif ($text === '}') {
            $depth--;
            if ($nsDepth !== null && $depth === $nsDepth) {
                $flush();
                $nsDepth = null;
                $ns = '';
                continue;
            }
            if ($classDepth !== null && $depth === $classDepth) {
                $class = null;
                $classDepth = null;
            }
        }
        if ($id === T_DOC_COMMENT) {
            $pendingDoc = clean_comment($text);
            if ($pendingDoc === null) {
                for ($j = $i + 1; $j < $n && is_array($tokens[$j]) && $tokens[$j][0] === T_WHITESPACE; $j++);
                $i = $j - 1; /* drop the comment and the blank after it */
            } else {
                $out .= $pendingDoc;
            }
            continue;
        }
        if (in_array($id, [T_CLASS, T_INTERFACE, T_ENUM, T_TRAIT], true) || $id === T_FUNCTION) {
            /* the name: the next word (a method may be named like a keyword: finally, unset) */
            for ($j = $i + 1; $j < $n && (!is_array($tokens[$j]) || $tokens[$j][0] === T_WHITESPACE); $j++);
            $name = $tokens[$j][1] ?? '';
            $key = $id === T_FUNCTION ? ($class !== null ? "$class::$name" : $name) : $name;
            $fq = ($ns !== '' ? "$ns\\" : '') . $key;
            $decls[$fq] = true;
            if ($pendingDoc === null && isset($docs[$key])) {
                /* the doc goes before the modifiers already written on this line */
                $pos = strrpos($out, "\n");
                $lineStart = $pos === false ? 0 : $pos + 1;
                $indent = preg_match('/^[ \t]*/', substr($out, $lineStart), $m) ? $m[0] : '';
                $out = substr($out, 0, $lineStart) . doc_comment($docs[$key], $indent) . substr($out, $lineStart);
            }
            if ($id !== T_FUNCTION) {
                $class = $name;
                $classDepth = $depth;
            }
        }
        if ($id !== T_WHITESPACE && $id !== T_COMMENT) {
            $pendingDoc = null;
        }
        $out .= $text;
    }
    $flush();
}

$files = [];
foreach ($byNs as $ns => $parts) {
    $name = $ns === '' ? 'global' : str_replace('\\', '_', $ns);
    $head = "<?php\n/*\n * IDE stubs of ext-async" . ($ns === '' ? ' (global namespace)' : ", namespace $ns")
        . ": generated by scripts/gen-ide-stubs.php from the\n * extension's *.stub.php files; not loaded by PHP.\n */\n\n"
        . ($ns === '' ? '' : "namespace $ns;\n\n");
    $files["$root/stubs/$name.php"] = preg_replace("/\n{3,}/", "\n\n", $head . implode("\n", $parts));
}

if ($check) {
    $all = implode("\n", array_map('file_get_contents', glob("$root/stubs/*.php")));
    $missing = [];
    foreach (array_keys($decls) as $fq) {
        $short = preg_replace('/^.*\\\\/', '', $fq);
        $name = str_contains($short, '::') ? explode('::', $short)[1] : $short;
        if (!preg_match('/\b(function|class|interface|enum)\s+' . preg_quote($name, '/') . '\b/', $all)) {
            $missing[] = $fq;
        }
    }
    echo $missing === [] ? "ide stubs: " . count($decls) . " declarations present\n" : "ide stubs: missing " . implode(', ', $missing) . "\n";
    exit($missing === [] ? 0 : 1);
}
foreach (glob("$root/stubs/*.php") as $old) {
    unlink($old);
}
foreach ($files as $path => $code) {
    file_put_contents($path, $code);
}
echo "stubs: ", count($files), " files, ", count($decls), " declarations, ", count(array_intersect_key($docs, array_flip(array_map(fn($k) => preg_replace('/^.*\\\\/', '', $k), array_keys($decls))))), " documented from the spec\n";
