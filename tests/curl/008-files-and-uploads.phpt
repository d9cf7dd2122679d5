--TEST--
CURLOPT_FILE / CURLOPT_WRITEHEADER / CURLOPT_STDERR streams, CURLOPT_INFILE uploads and CURLFile multipart uploads from coroutines; a closed CURLOPT_FILE stream warns and falls back as stock
--SKIPIF--
<?php
require __DIR__ . '/../inc/http_fixture.inc';
$why = http_fixture_skip_reason();
if ($why !== '') die("skip $why");
?>
--EXTENSIONS--
curl
--INI--
async.debug_deadlock=0
--FILE--
<?php
require __DIR__ . '/../inc/http_fixture.inc';
use function Async\{spawn, await, await_all};

$server = http_fixture_start();
$url = $server['url'];
$dir = sys_get_temp_dir() . '/async-curl-files-' . getmypid();
@mkdir($dir);

$tasks = [];
/* body and headers into files, verbose log into a stream */
$tasks['file'] = spawn(function () use ($url, $dir) {
    $body = fopen("$dir/body", 'w+');
    $head = fopen("$dir/head", 'w+');
    $log = fopen('php://memory', 'w+');
    $ch = http_fixture_handle("$url/big?kb=256", [
        CURLOPT_RETURNTRANSFER => false, CURLOPT_FILE => $body, CURLOPT_WRITEHEADER => $head,
        CURLOPT_VERBOSE => true, CURLOPT_STDERR => $log,
    ]);
    $ok = curl_exec($ch);
    rewind($log);
    return [$ok, filesize("$dir/body"), str_contains(file_get_contents("$dir/head"), 'Content-Length: 262144'),
        str_contains(stream_get_contents($log), 'GET /big?kb=256')];
});
/* PUT from a file with CURLOPT_INFILE */
$tasks['infile'] = spawn(function () use ($url, $dir) {
    file_put_contents("$dir/upload", str_repeat('u', 100000));
    $in = fopen("$dir/upload", 'r');
    $ch = http_fixture_handle("$url/echo", [CURLOPT_UPLOAD => true, CURLOPT_INFILE => $in, CURLOPT_INFILESIZE => 100000]);
    $echo = json_decode(curl_exec($ch), true);
    return [$echo['method'], strlen($echo['body']), $echo['headers']['content-length']];
});
/* multipart POST with a CURLFile and a field */
$tasks['curlfile'] = spawn(function () use ($url, $dir) {
    file_put_contents("$dir/photo.txt", 'pretend-photo');
    $ch = http_fixture_handle("$url/echo", [CURLOPT_POST => true, CURLOPT_POSTFIELDS => [
        'title' => 'holiday', 'photo' => new CURLFile("$dir/photo.txt", 'text/plain', 'photo.txt'),
    ]]);
    $echo = json_decode(curl_exec($ch), true);
    return [$echo['method'], str_contains($echo['headers']['content-type'], 'multipart/form-data'),
        str_contains($echo['body'], 'filename="photo.txt"'), str_contains($echo['body'], 'pretend-photo'),
        str_contains($echo['body'], 'holiday')];
});
[$results, $errors] = await_all($tasks);
foreach ($results as $k => $r) {
    echo "$k: ", json_encode($r), "\n";
}
var_dump($errors);

/* the CURLOPT_FILE stream was closed before curl_exec(): ext/curl's warning, the body printed */
await(spawn(function () use ($url, $dir) {
    $f = fopen("$dir/gone", 'w');
    $ch = http_fixture_handle("$url/delay?ms=0&body=printed-instead", [CURLOPT_RETURNTRANSFER => false, CURLOPT_FILE => $f]);
    fclose($f);
    var_dump(curl_exec($ch));
}));
echo "\n";
array_map('unlink', glob("$dir/*"));
rmdir($dir);
?>
--EXPECTF--
file: [true,262144,true,true]
infile: ["PUT",100000,"100000"]
curlfile: ["POST",true,true,true,true]
array(0) {
}

Warning: curl_exec(): CURLOPT_FILE resource has gone away, resetting to default in %s on line %d
printed-insteadbool(true)
