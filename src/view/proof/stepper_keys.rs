//! The Proof page's keyboard: which key does what, given where the focus is. Pure, so the
//! rules (never steal a key from a text field, a slider or an open picker) are tested natively.

/// What a key does to the stepper.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKey {
    Prev,
    Next,
    First,
    Last,
    TogglePlay,
}

/// Where the key was pressed: the focused element, as the page sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyTarget<'a> {
    /// The element's tag name, upper case (`INPUT`, `BUTTON`, `BODY`).
    pub tag: &'a str,
    /// For an `INPUT`: its `type` (`text`, `range`, `checkbox`…).
    pub input_type: &'a str,
    pub content_editable: bool,
    /// Ctrl, Alt or Meta held (browser and system shortcuts keep those).
    pub modifier: bool,
}

/// Whether the focused element uses the key itself: text fields (typing, caret moves),
/// sliders and pickers (their own arrows), and buttons and check boxes for Space.
fn element_wants(target: &KeyTarget, key: &str) -> bool {
    if target.content_editable {
        return true;
    }
    match target.tag {
        "TEXTAREA" | "SELECT" => true,
        "INPUT" => match target.input_type {
            "button" | "submit" | "reset" | "checkbox" | "radio" | "file" | "color" => key == " ",
            _ => true,
        },
        "BUTTON" | "SUMMARY" | "A" => key == " ",
        _ => false,
    }
}

/// The stepper command for `key` (a `KeyboardEvent.key`) pressed on `target`, if any.
pub fn step_key(key: &str, target: &KeyTarget) -> Option<StepKey> {
    if target.modifier || element_wants(target, key) {
        return None;
    }
    match key {
        "ArrowLeft" => Some(StepKey::Prev),
        "ArrowRight" => Some(StepKey::Next),
        "Home" => Some(StepKey::First),
        "End" => Some(StepKey::Last),
        " " => Some(StepKey::TogglePlay),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn on(tag: &'static str, input_type: &'static str) -> KeyTarget<'static> {
        KeyTarget {
            tag,
            input_type,
            content_editable: false,
            modifier: false,
        }
    }

    #[test]
    fn keys_step_from_the_page_and_from_buttons() {
        let body = on("BODY", "");
        assert_eq!(step_key("ArrowRight", &body), Some(StepKey::Next));
        assert_eq!(step_key("ArrowLeft", &body), Some(StepKey::Prev));
        assert_eq!(step_key("Home", &body), Some(StepKey::First));
        assert_eq!(step_key("End", &body), Some(StepKey::Last));
        assert_eq!(step_key(" ", &body), Some(StepKey::TogglePlay));
        assert_eq!(step_key("a", &body), None);
        // A focused button still steps with arrows, but Space presses the button.
        let button = on("BUTTON", "");
        assert_eq!(step_key("ArrowRight", &button), Some(StepKey::Next));
        assert_eq!(step_key(" ", &button), None);
        assert_eq!(
            step_key("End", &on("INPUT", "checkbox")),
            Some(StepKey::Last)
        );
    }

    #[test]
    fn text_fields_sliders_pickers_and_shortcuts_keep_their_keys() {
        for t in [
            on("INPUT", "text"),
            on("INPUT", ""),
            on("INPUT", "range"),
            on("TEXTAREA", ""),
            on("SELECT", ""),
        ] {
            for key in ["ArrowLeft", "ArrowRight", "Home", "End", " "] {
                assert_eq!(step_key(key, &t), None, "{t:?} {key}");
            }
        }
        let editable = KeyTarget {
            content_editable: true,
            ..on("DIV", "")
        };
        assert_eq!(step_key("ArrowRight", &editable), None);
        let ctrl = KeyTarget {
            modifier: true,
            ..on("BODY", "")
        };
        assert_eq!(step_key("ArrowRight", &ctrl), None);
    }
}
