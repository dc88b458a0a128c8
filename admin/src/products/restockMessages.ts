/** The words of a product's restock window, merged into the console's messages. */
export const restockFieldMessages = {
  restockUntil: 'Restocks tried until',
}

/** `dropslot.products.*` */
export const restockMessages = {
  restock_hint:
    'Optional: the bot keeps trying for restocks until then; orders fail as sold out only after it.',
}
