//! `regex-chess serve`: a tiny static file server for the site, on localhost.
//!
//! Standard library only: 127.0.0.1 only, one thread per connection, `GET` and `HEAD`
//! only, files under the directory only (no `..`, no hidden files), `index.html` for `/`,
//! and the MIME types a browser needs (`text/javascript` for modules and workers). Every
//! response carries `Cache-Control: no-store`, so a rebuilt site is never stale.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};

use clap::Args;

use super::CliError;

/// Arguments of `serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The port on 127.0.0.1 (0 picks a free one; the address is printed).
    #[arg(long, default_value_t = 8000)]
    port: u16,
    /// The directory to serve (as written by `regex-chess site`).
    #[arg(long, default_value = "site")]
    dir: PathBuf,
}

/// Runs `serve` until killed.
pub fn run(args: ServeArgs) -> Result<(), CliError> {
    if !args.dir.join("index.html").is_file() {
        return Err(CliError(format!(
            "{} has no index.html (write the site with `regex-chess site -o {}`)",
            args.dir.display(),
            args.dir.display()
        )));
    }
    let listener = TcpListener::bind(("127.0.0.1", args.port))
        .map_err(|e| CliError(format!("cannot listen on 127.0.0.1:{}: {e}", args.port)))?;
    let address = listener.local_addr()?;
    println!("serving {} on http://{address}/", args.dir.display());
    std::io::stdout().flush()?;
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let dir = args.dir.clone();
        std::thread::spawn(move || {
            let _ = respond(stream, &dir);
        });
    }
    Ok(())
}

/// The MIME type of a file, by its extension.
pub fn mime_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "txt" => "text/plain; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        _ => "application/octet-stream",
    }
}

/// The file a request path names, if it is a plain path inside `dir`.
pub fn resolve(dir: &Path, target: &str) -> Option<PathBuf> {
    let path = target.split(['?', '#']).next().unwrap_or("");
    let path = path.strip_prefix('/')?;
    let mut file = dir.to_path_buf();
    for part in path.split('/').filter(|p| !p.is_empty()) {
        if part.starts_with('.') || part.contains('\\') || part.contains('%') {
            return None;
        }
        file.push(part);
    }
    if file.is_dir() {
        file.push("index.html");
    }
    Some(file)
}

fn respond(stream: TcpStream, dir: &Path) -> std::io::Result<()> {
    // A request line and headers beyond 64 KiB are not read.
    let mut reader = BufReader::new(stream.try_clone()?.take(64 * 1024));
    let mut request = String::new();
    reader.read_line(&mut request)?;
    // Skip the headers.
    let mut line = String::new();
    while reader.read_line(&mut line)? > 2 {
        line.clear();
    }
    let mut parts = request.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let mut stream = stream;
    if method != "GET" && method != "HEAD" {
        return send(
            &mut stream,
            "405 Method Not Allowed",
            "text/plain",
            b"GET only\n",
            true,
        );
    }
    let body_too = method == "GET";
    match resolve(dir, target).and_then(|f| std::fs::read(&f).ok().map(|b| (f, b))) {
        Some((file, bytes)) => send(&mut stream, "200 OK", mime_type(&file), &bytes, body_too),
        None => send(
            &mut stream,
            "404 Not Found",
            "text/plain",
            b"not found\n",
            body_too,
        ),
    }
}

fn send(
    stream: &mut TcpStream,
    status: &str,
    mime: &str,
    body: &[u8],
    body_too: bool,
) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {mime}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    if body_too {
        stream.write_all(body)?;
    }
    stream.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_inside_the_directory() {
        let dir = Path::new("/srv/site");
        assert_eq!(
            resolve(dir, "/app.js?v=1"),
            Some(PathBuf::from("/srv/site/app.js"))
        );
        assert_eq!(resolve(dir, "/../etc/passwd"), None);
        assert_eq!(resolve(dir, "/a/%2e%2e/b"), None);
        assert_eq!(resolve(dir, "/.git/config"), None);
        assert_eq!(resolve(dir, "relative"), None);
        assert_eq!(
            mime_type(Path::new("worker.js")),
            "text/javascript; charset=utf-8"
        );
    }
}
