//! The Extract page's decisions: the grade table's columns, one row opened in full, a kept
//! grade run read back, and the table's view in the URL.

pub mod grade_columns;
pub mod kept;
pub mod row_detail;
pub mod table_url;
