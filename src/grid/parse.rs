//! Parsing one puzzle per line.

use super::{CageError, Cages, Conflict, Geometry, Grid, RegionError, Regions, Variant};
use std::sync::Arc;
use thiserror::Error;

/// Why a line is not a puzzle. Messages name the problem; callers prefix the line number.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ParseError {
    /// The line holds no cells.
    #[error("empty line, expected a puzzle")]
    Empty,
    /// The cell token has a length that is no supported grid.
    #[error("{found} cells, expected {expected}")]
    WrongLength {
        /// Characters found.
        found: usize,
        /// What would have been accepted.
        expected: String,
    },
    /// A character that is not a cell of this size.
    #[error("symbol '{symbol}' at cell {position} is not a digit of a {n}x{n} grid (use '.' or '0' for empty, 1-9 then A-G)")]
    BadSymbol {
        /// The offending character.
        symbol: char,
        /// 1-based cell position.
        position: usize,
        /// Grid side.
        n: usize,
    },
    /// A digit twice in a unit.
    #[error("{0}")]
    Conflict(Conflict),
    /// A killer line without its cage map and sums.
    #[error("a killer line has three fields: givens, cage map and sums (e.g. `........ AABBCDDB 3,9,5,5`); see the README")]
    MissingCages,
    /// Cages that are not a valid partition.
    #[error("{0}")]
    Cages(CageError),
    /// A jigsaw line without its region map.
    #[error("a jigsaw line has two fields: givens and region map, one region symbol (1-9, then A-G) per cell (e.g. `4.....8.5... 111122223...`); see the README")]
    MissingRegions,
    /// A region map that is not a jigsaw layout.
    #[error("{0}")]
    Regions(RegionError),
    /// A variant read at a size it is not made in.
    #[error(
        "{} sudoku is made in sizes {}, not {n} (`bank variants` lists each variant's sizes)",
        .variant.rules().name,
        .variant.rules().sizes_listed("and")
    )]
    NotMade {
        /// The variant asked for.
        variant: Variant,
        /// The line's grid side.
        n: usize,
    },
}

/// Parses a line whose size is taken from its length (16, 36, 81, 144 or 256 cells).
///
/// Leading whitespace and anything after the first run of non-whitespace are ignored,
/// so `<cells> <rating>` lines parse.
pub fn parse_line(line: &str) -> Result<Grid, ParseError> {
    parse_line_in(line, Variant::default())
}

/// [`parse_line`] under the rules of `variant` (clues clashing on a diagonal are refused).
pub fn parse_line_in(line: &str, variant: Variant) -> Result<Grid, ParseError> {
    let token = cell_token(line)?;
    let len = token.chars().count();
    let geometry = Geometry::for_cell_count(len).ok_or_else(|| ParseError::WrongLength {
        found: len,
        expected: "16, 36, 81, 144 or 256".into(),
    })?;
    parse_fields(line, token, geometry.with_variant(variant))
}

/// The cells, and for a killer line the cages of its next two fields (the text form:
/// givens, cage map, sums).
fn parse_fields(line: &str, token: &str, geometry: Geometry) -> Result<Grid, ParseError> {
    let (variant, n) = (geometry.variant(), geometry.n());
    if !variant.rules().made_in(n) {
        return Err(ParseError::NotMade { variant, n });
    }
    if variant.rules().regions_per_puzzle() {
        let map = line
            .split_whitespace()
            .nth(1)
            .ok_or(ParseError::MissingRegions)?;
        let regions = Regions::parse(geometry, map).map_err(ParseError::Regions)?;
        let grid = parse_cells(token, geometry)?.with_regions(Arc::new(regions));
        return match grid.find_conflict() {
            Some(conflict) => Err(ParseError::Conflict(conflict)),
            None => Ok(grid),
        };
    }
    if !geometry.variant().has_cages() {
        return parse_cells(token, geometry);
    }
    let mut fields = line.split_whitespace().skip(1);
    let (Some(map), Some(sums)) = (fields.next(), fields.next()) else {
        return Err(ParseError::MissingCages);
    };
    let cages = Cages::parse(geometry, map, sums).map_err(ParseError::Cages)?;
    let grid = parse_cells(token, geometry)?.with_cages(Arc::new(cages));
    match grid.find_conflict() {
        Some(conflict) => Err(ParseError::Conflict(conflict)),
        None => Ok(grid),
    }
}

/// Parses a line that must be of the given geometry.
pub fn parse_line_with(line: &str, geometry: Geometry) -> Result<Grid, ParseError> {
    let token = sized_token(line, geometry)?;
    parse_fields(line, token, geometry)
}

/// Parses the cells alone of a line that must be of the given geometry: a grid with no
/// cages even where the rule set has them (a stored solution or base grid, whose cages
/// are kept apart).
pub fn parse_cells_with(line: &str, geometry: Geometry) -> Result<Grid, ParseError> {
    parse_cells(sized_token(line, geometry)?, geometry)
}

/// The cell field of a line that must be of `geometry`.
fn sized_token(line: &str, geometry: Geometry) -> Result<&str, ParseError> {
    let token = cell_token(line)?;
    let len = token.chars().count();
    if len != geometry.cells() {
        return Err(ParseError::WrongLength {
            found: len,
            expected: format!("{} for {}", geometry.cells(), geometry.label()),
        });
    }
    Ok(token)
}

fn cell_token(line: &str) -> Result<&str, ParseError> {
    line.split_whitespace().next().ok_or(ParseError::Empty)
}

fn parse_cells(token: &str, geometry: Geometry) -> Result<Grid, ParseError> {
    let n = geometry.n();
    let mut cells = Vec::with_capacity(geometry.cells());
    for (i, ch) in token.chars().enumerate() {
        let value =
            symbol_value(ch)
                .filter(|&v| (v as usize) <= n)
                .ok_or(ParseError::BadSymbol {
                    symbol: ch,
                    position: i + 1,
                    n,
                })?;
        cells.push(value);
    }
    let grid = Grid::from_cells(geometry, cells);
    match grid.find_conflict() {
        Some(conflict) => Err(ParseError::Conflict(conflict)),
        None => Ok(grid),
    }
}

fn symbol_value(ch: char) -> Option<u8> {
    match ch {
        '.' | '0' => Some(0),
        '1'..='9' => Some(ch as u8 - b'0'),
        'A'..='G' => Some(ch as u8 - b'A' + 10),
        'a'..='g' => Some(ch as u8 - b'a' + 10),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::grid::samples::HARD as P;

    #[test]
    fn round_trips_dots_and_zeros() {
        let g = parse_line(P).unwrap();
        assert_eq!(g.to_line(), P);
        let zeros = P.replace('.', "0");
        assert_eq!(parse_line(&zeros).unwrap(), g);
    }

    #[test]
    fn trailing_rating_and_whitespace_allowed() {
        let g = parse_line(&format!("  {P}   4.5\n")).unwrap();
        assert_eq!(g.clue_count(), 17);
    }

    #[test]
    fn wrong_length_is_named() {
        let err = parse_line("123").unwrap_err();
        assert_eq!(err.to_string(), "3 cells, expected 16, 36, 81, 144 or 256");
        let err = parse_line_with(P, Geometry::for_size(4).unwrap()).unwrap_err();
        assert!(err.to_string().contains("expected 16 for 4x4"));
    }

    #[test]
    fn out_of_range_symbol_is_named() {
        let line = P.replacen('4', "A", 1);
        let err = parse_line(&line).unwrap_err();
        assert!(err.to_string().starts_with("symbol 'A' at cell 1"), "{err}");
        let err = parse_line(&P.replacen('4', "x", 1)).unwrap_err();
        assert!(matches!(err, ParseError::BadSymbol { symbol: 'x', .. }));
    }

    #[test]
    fn duplicate_digit_is_named() {
        let line = format!("55{}", &P[2..]);
        let err = parse_line(&line).unwrap_err();
        assert_eq!(err.to_string(), "digit 5 appears twice in row 1");
    }

    #[test]
    fn sixteen_by_sixteen_letters() {
        let mut line = String::from("123456789ABCDEFG");
        line.push_str(&".".repeat(240));
        let g = parse_line(&line).unwrap();
        assert_eq!(g.geometry().n(), 16);
        assert_eq!(g.get(15), 16);
        assert_eq!(g.to_line(), line);
    }

    #[test]
    fn killer_lines_carry_cages() {
        let line = "................ AABBCDDBCEFFGEHH 3,9,5,5,4,7,4,3";
        let g = parse_line_in(line, Variant::Killer).unwrap();
        assert_eq!(g.cages().unwrap().count(), 8);
        assert_eq!(g.geometry().variant(), Variant::Killer);
        assert_eq!(
            parse_line_in("................", Variant::Killer).unwrap_err(),
            ParseError::MissingCages
        );
        let bad = "13.............. AABBCDDBCEFFGEHH 3,9,5,5,4,7,4,3";
        assert_eq!(
            parse_line_in(bad, Variant::Killer).unwrap_err().to_string(),
            "cage 1 (r1c1+r1c2) must sum to 3, but its digits give 4"
        );
    }

    #[test]
    fn empty_line_is_an_error() {
        assert_eq!(parse_line("   ").unwrap_err(), ParseError::Empty);
    }
}
