//! Reading a results file in chunks (`File.slice`, so no main-thread task holds the page
//! for long) through the band evaluator, and one case's line back by its offset.

use crate::band::{BandReport, CaseRef, Evaluator, Options};
use crate::jsonl::Line;
use crate::ui::browser_file::{read_slice, stream_lines};
use leptos::prelude::*;

/// Bytes per `File.slice`: small enough that parsing one chunk stays well under 200 ms.
const CHUNK_BYTES: f64 = 2.0 * 1024.0 * 1024.0;

fn feed(ev: &mut Evaluator, l: Line) {
    match l.text {
        Ok(t) => ev.push_line(l.number, l.offset, &t),
        Err(e) => ev.bad_line(l.number, e.reason()),
    }
}

/// Stream the file through the evaluator; returns the report and the BOM length.
pub async fn evaluate_file(
    file: &web_sys::File,
    progress: RwSignal<Option<(f64, f64)>>,
) -> Result<(BandReport, u64), String> {
    let mut ev = Evaluator::new(Options::default());
    let (bom, _) = stream_lines(
        file,
        CHUNK_BYTES,
        &mut |read, total| progress.set(Some((read, total))),
        &mut |l| feed(&mut ev, l),
    )
    .await?;
    Ok((ev.finish(), bom))
}

/// The text of one case's line, read back from the file by its offset.
pub async fn read_case_line(file: &web_sys::File, bom: u64, c: &CaseRef) -> Result<String, String> {
    let start = (c.offset + bom) as f64;
    let bytes = read_slice(file, start, start + f64::from(c.len)).await?;
    String::from_utf8(bytes).map_err(|_| format!("line {} is not UTF-8", c.line))
}
