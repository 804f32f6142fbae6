//! English number words ("seventy six", "three hundred and two", "minus four") to integers.
//!
//! Only used on text already isolated as an answer: scanning whole solutions for words like
//! "one" would turn "one of them" into a candidate.

fn unit(w: &str) -> Option<i128> {
    Some(match w {
        "zero" => 0,
        "one" => 1,
        "two" => 2,
        "three" => 3,
        "four" => 4,
        "five" => 5,
        "six" => 6,
        "seven" => 7,
        "eight" => 8,
        "nine" => 9,
        "ten" => 10,
        "eleven" => 11,
        "twelve" => 12,
        "thirteen" => 13,
        "fourteen" => 14,
        "fifteen" => 15,
        "sixteen" => 16,
        "seventeen" => 17,
        "eighteen" => 18,
        "nineteen" => 19,
        "twenty" => 20,
        "thirty" => 30,
        "forty" => 40,
        "fifty" => 50,
        "sixty" => 60,
        "seventy" => 70,
        "eighty" => 80,
        "ninety" => 90,
        _ => return None,
    })
}

fn scale(w: &str) -> Option<i128> {
    Some(match w {
        "hundred" => 100,
        "thousand" => 1_000,
        "million" => 1_000_000,
        "billion" => 1_000_000_000,
        _ => return None,
    })
}

/// The integer spelled by `text`, or `None` if any word is not a number word.
pub fn parse_number_words(text: &str) -> Option<i128> {
    let lower = text.trim().to_ascii_lowercase();
    let mut words = lower
        .split(|c: char| c.is_whitespace() || c == '-')
        .filter(|w| !w.is_empty() && *w != "and")
        .peekable();
    let negative = matches!(words.peek(), Some(&"minus") | Some(&"negative"));
    if negative {
        words.next();
    }
    let (mut total, mut current, mut seen) = (0i128, 0i128, false);
    for w in words {
        if let Some(u) = unit(w) {
            current = current.checked_add(u)?;
        } else if let Some(s) = scale(w) {
            let base = if current == 0 { 1 } else { current };
            if s == 100 {
                current = base.checked_mul(100)?;
            } else {
                total = total.checked_add(base.checked_mul(s)?)?;
                current = 0;
            }
        } else {
            return None;
        }
        seen = true;
    }
    if !seen {
        return None;
    }
    let v = total.checked_add(current)?;
    Some(if negative { -v } else { v })
}

#[cfg(test)]
mod tests {
    use super::parse_number_words as p;

    #[test]
    fn common_forms() {
        assert_eq!(p("three"), Some(3));
        assert_eq!(p("seventy six"), Some(76));
        assert_eq!(p("Seventy-six"), Some(76));
        assert_eq!(p("three hundred and two"), Some(302));
        assert_eq!(p("two thousand five hundred"), Some(2500));
        assert_eq!(p("a million"), None);
        assert_eq!(p("minus four"), Some(-4));
        assert_eq!(p("zero"), Some(0));
    }

    #[test]
    fn prose_is_not_a_number() {
        assert_eq!(p("one of them"), None);
        assert_eq!(p(""), None);
        assert_eq!(p("and"), None);
    }
}
