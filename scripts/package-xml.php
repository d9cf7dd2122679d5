<?php
/*
 * scripts/package-xml.php — writes package.xml (PECL, package 2.0) from the repository's files:
 * every source, header and stub the build uses (config.m4), the docs, and every test.
 *   php scripts/package-xml.php            # rewrite package.xml
 *   php scripts/package-xml.php --stdout   # print it (scripts/check-package.sh compares)
 */
$root = dirname(__DIR__);
chdir($root);
$version = preg_match('/PHP_ASYNC_VERSION "([^"]+)"/', file_get_contents('php_async.h'), $m) ? $m[1] : '0.0.0';
$abi = preg_match('/ZEND_ASYNC_API "ext-async ABI v([^"]+)"/', file_get_contents('zend_async_API.h'), $m) ? $m[1] : '0.0.0';

/* The files of the package: tracked by git when there is a repository; in a copy made by
 * scripts/php-chroot.sh, the list it copied; else found on disk. */
$tracked = [];
exec('git ls-files 2>/dev/null', $tracked, $rc);
if (($rc !== 0 || $tracked === []) && is_file('.copied-files')) {
    $tracked = file('.copied-files', FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES);
    $rc = 0;
}
if ($rc !== 0 || $tracked === []) {
    $it = new RecursiveIteratorIterator(new RecursiveDirectoryIterator('.', FilesystemIterator::SKIP_DOTS));
    foreach ($it as $f) {
        $tracked[] = substr($f->getPathname(), 2);
    }
}
$roles = [];
foreach ($tracked as $f) {
    if (preg_match('~^(\.|build/|modules/|include/|autom4te)~', $f)) {
        continue;
    }
    /* the spine at the root and the layers' folders (docs/architecture.md) */
    if (preg_match('~^((core|reactor|classes|hooks)/)?[^/]+\.(c|h)$~', $f) || preg_match('~^((core|reactor|classes|hooks)/)?[^/]+\.stub\.php$~', $f)
        || in_array($f, ['config.m4', 'config.w32'], true)) {
        $roles[$f] = 'src';
    } elseif (preg_match('~^tests/~', $f)) {
        $roles[$f] = 'test';
    } elseif (preg_match('~^(README\.md|LICENSE|async\.ini|docs/.+\.md|examples/.+\.php|stubs/.+\.php)$~', $f)) {
        $roles[$f] = 'doc';
    }
}
ksort($roles);

/* Written by hand (no XML extension needed): every value goes through htmlspecialchars(). */
$e = fn(string $v): string => htmlspecialchars($v, ENT_XML1 | ENT_QUOTES, 'UTF-8');
$files = '';
foreach ($roles as $f => $role) {
    $files .= "   <file name=\"{$e($f)}\" role=\"$role\"/>\n";
}
$date = gmdate('Y-m-d', (int) (getenv('SOURCE_DATE_EPOCH') ?: filemtime('php_async.h')));
$description = 'A TrueAsync-style async runtime as a loadable module: coroutines, a scheduler, structured '
    . 'concurrency (scopes, TaskGroup), channels, pools, futures, and transparent non-blocking I/O (sockets, TLS, '
    . 'DNS, curl, processes, pipes, files, locks), so that Async\spawn() and await() make plain PHP code '
    . 'concurrent; other extensions use the same machinery through the ZEND_ASYNC_* ABI.';
$xml = <<<XML
<?xml version="1.0" encoding="UTF-8"?>
<package version="2.0" xmlns="http://pear.php.net/dtd/package-2.0">
 <name>async</name>
 <channel>pecl.php.net</channel>
 <summary>Coroutines, a scheduler and a libuv reactor for unpatched PHP</summary>
 <description>{$e($description)}</description>
 <lead>
  <name>The ext-async authors</name>
  <user>async</user>
  <email>async@localhost</email>
  <active>yes</active>
 </lead>
 <date>$date</date>
 <version>
  <release>{$e($version)}</release>
  <api>{$e($abi)}</api>
 </version>
 <stability>
  <release>beta</release>
  <api>beta</api>
 </stability>
 <license filesource="LICENSE">MIT</license>
 <notes>See README.md.</notes>
 <contents>
  <dir name="/">
$files  </dir>
 </contents>
 <dependencies>
  <required>
   <php>
    <min>8.2.0</min>
    <max>8.5.99</max>
   </php>
   <pearinstaller>
    <min>1.10.0</min>
   </pearinstaller>
  </required>
 </dependencies>
 <providesextension>async</providesextension>
 <extsrcrelease>
  <configureoption name="enable-async" default="yes" prompt="Enable the async runtime (needs libuv &gt;= 1.44)"/>
 </extsrcrelease>
</package>

XML;

if (in_array('--stdout', $argv, true)) {
    echo $xml;
} else {
    file_put_contents('package.xml', $xml);
    echo "package.xml: ", count($roles), " files\n";
}
