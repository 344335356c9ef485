// The code the sourcemaps e2e test throws from: computeTotal calls the
// discount rule of a price list that has none, so V8 names the (minified)
// local that held it: "TypeError: n is not a function".
export function computeTotal(items, priceList) {
  const discountFor = priceList.discount;
  let total = 0;
  for (const item of items) {
    const price = item.price * item.quantity;
    total += price - discountFor(item, price);
  }
  return total;
}
