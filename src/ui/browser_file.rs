//! Small browser helpers the file-reading pages share: a clock, reading a byte range of a
//! picked file (chunked reading keeps the page responsive on 100 MB files), a safe
//! file-name stem for downloads, and fetching one of the app's own example files.

use wasm_bindgen_futures::JsFuture;

/// Milliseconds from `performance.now()` (0 without a window).
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}

/// Bytes `start..end` of `file`.
pub async fn read_slice(file: &web_sys::File, start: f64, end: f64) -> Result<Vec<u8>, String> {
    let blob = file
        .slice_with_f64_and_f64(start, end)
        .map_err(|_| format!("could not slice {} at byte {:.0}", file.name(), start))?;
    let buf = JsFuture::from(blob.array_buffer())
        .await
        .map_err(|_| format!("could not read {} at byte {:.0}", file.name(), start))?;
    Ok(js_sys::Uint8Array::new(&buf).to_vec())
}

/// Reads `file` in `chunk`-byte slices (`File.slice`, so no main-thread task holds the page
/// for long) and hands each JSONL line to `on_line`; `progress(read, total)` before the first
/// slice and after each. Returns the BOM length (line offsets count from after it) and the
/// milliseconds spent in `on_line`. The Report and Extract uploads both read through this.
pub async fn stream_lines(
    file: &web_sys::File,
    chunk: f64,
    progress: &mut dyn FnMut(f64, f64),
    on_line: &mut dyn FnMut(crate::jsonl::Line),
) -> Result<(u64, f64), String> {
    let total = file.size();
    let mut splitter = crate::jsonl::LineSplitter::default();
    let (mut start, mut bom, mut busy_ms) = (0.0, 0, 0.0);
    progress(0.0, total);
    while start < total {
        let end = (start + chunk).min(total);
        let bytes = read_slice(file, start, end).await?;
        if start == 0.0 {
            bom = crate::view::report::drill::bom_len(&bytes);
        }
        let t0 = now_ms();
        splitter.push(&bytes, &mut |l| on_line(l));
        busy_ms += now_ms() - t0;
        start = end;
        progress(start, total);
    }
    let t0 = now_ms();
    splitter.finish(&mut |l| on_line(l));
    Ok((bom, busy_ms + now_ms() - t0))
}

/// The file name without extension, reduced to characters safe in a download name.
pub fn file_stem(name: &str, fallback: &str) -> String {
    let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
    let clean: String = stem
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if clean.is_empty() {
        fallback.into()
    } else {
        clean
    }
}

/// The file chosen in the `<input type=file>` that fired `ev`, if any.
pub fn picked_file(ev: &web_sys::Event) -> Option<web_sys::File> {
    use wasm_bindgen::JsCast;
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        .and_then(|i| i.files())
        .and_then(|fs| fs.get(0))
}

/// The text of one of the examples Trunk copies to `/examples/` (from `public/examples/`).
/// Fetched on demand rather than compiled in: the examples would otherwise ship in the wasm
/// to every user, most of whom never open them. Same origin only; nothing leaves the page.
pub async fn fetch_example(file: &str) -> Result<String, String> {
    // Relative to the document base, so the examples load under a sub-path too.
    let url = format!("examples/{file}");
    let failed = |why: String| format!("could not load the example {url}: {why}");
    let reply = gloo_net::http::Request::get(&url)
        .send()
        .await
        .map_err(|e| failed(e.to_string()))?;
    if !reply.ok() {
        return Err(failed(format!("HTTP {}", reply.status())));
    }
    reply.text().await.map_err(|e| failed(e.to_string()))
}
