/** The words of the Mark dialogs (`dropslot.orders.*`, merged into the console's messages). */
export const markOrderMessages = {
  mark_success_title: 'Mark this order successful?',
  mark_success_body:
    "The $1.00 hold is released and the customer is e-mailed. Give the retailer's confirmation number, or say why there is none.",
  mark_success_charge: "This charges the %{fee} fee to the customer's card on file.",
  mark_success_no_mail: 'No e-mail from the retailer has arrived for this order yet.',
  mark_success_unsigned:
    '%{smart_count} e-mail arrived for this order, but without a valid signature. |||| %{smart_count} e-mails arrived for this order, none with a valid signature.',
  mark_success_reason: 'Reason, when there is no confirmation number (audit log)',
  mark_success_needs: 'Enter the confirmation number or a reason.',
  mark_fail_title: 'Mark this order failed?',
  mark_fail_body: 'No fee is charged, the hold is released and the customer sees Not secured.',
}
