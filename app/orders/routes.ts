/*
| Routes of the orders module are registered here.
*/
export {}
