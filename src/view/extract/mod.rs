//! The Extract page's decisions: the grade table's columns, one row opened in full, and a
//! kept grade run read back.

pub mod grade_columns;
pub mod kept;
pub mod row_detail;
