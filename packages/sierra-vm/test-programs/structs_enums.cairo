// Structs, enums, match, Option, bool logic, Box. Results are returned as a tuple of felts.
#[derive(Copy, Drop)]
struct Point {
    x: felt252,
    y: felt252,
}

#[derive(Copy, Drop)]
enum Shape {
    Circle: u32,
    Rect: (u32, u32),
    Empty,
    Dot: Point,
}

fn area(s: Shape) -> u32 {
    match s {
        Shape::Circle(r) => 3 * r * r,
        Shape::Rect((w, h)) => w * h,
        Shape::Empty => 0,
        Shape::Dot(_) => 1,
    }
}

fn flip(p: Point) -> Point {
    Point { x: p.y, y: p.x }
}

fn main() -> (felt252, felt252, felt252, felt252, felt252, felt252, felt252, felt252, felt252, felt252, felt252, felt252, felt252) {
    let r0: felt252 = area(Shape::Circle(5)).into();
    let r1: felt252 = area(Shape::Rect((6, 7))).into();
    let r2: felt252 = area(Shape::Empty).into();
    let r3: felt252 = area(Shape::Dot(Point { x: 1, y: 2 })).into();
    let p = flip(Point { x: 11, y: 22 });
    let r4: felt252 = p.x;
    let r5: felt252 = p.y;
    let t = true;
    let f = false;
    let r6: felt252 = (t && f).into();
    let r7: felt252 = (t || f).into();
    let r8: felt252 = (t ^ f).into();
    let r9: felt252 = (!f).into();
    let o: Option<felt252> = Option::Some(42);
    let r10: felt252 = o.unwrap_or(0);
    let n: Option<felt252> = Option::None;
    let r11: felt252 = n.unwrap_or(7);
    let b = BoxTrait::new(Point { x: 5, y: 6 });
    let r12: felt252 = b.unbox().x + b.unbox().y;
    (r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12)
}
