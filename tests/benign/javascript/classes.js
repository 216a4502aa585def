class A{#p=1;get p(){return this.#p}static make(){return new A()}}
class B extends A{}
if(B.make().p!==1) throw new Error('class');
console.log('OK');
