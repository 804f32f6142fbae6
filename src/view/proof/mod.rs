//! The Proof page's decisions: the DAG drawing, the labels of the world panels, the views at
//! a step, the stepper's keys, the form's help, the research panel's plan and the page's URL.

pub mod dag_draw;
pub mod form_help;
pub mod link;
pub mod research_plan;
pub mod stepper_keys;
pub mod steps;
pub mod world_labels;
