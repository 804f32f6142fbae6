//! The Extract page's decisions: the grade table's columns, one row opened in full, a kept
//! grade run read back, the table's view in the URL, and the single view's grading mode.

pub mod grade_columns;
pub mod kept;
pub mod row_detail;
pub mod single_mode;
pub mod table_url;
