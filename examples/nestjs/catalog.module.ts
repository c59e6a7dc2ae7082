/** The catalogue: a repository injected into a service whose methods are tools. */
import { Injectable, Module } from "@nestjs/common";
import { Tool } from "toolnexus";
import { ToolParam } from "toolnexus/nestjs";

export interface Product {
  sku: string;
  name: string;
  price: number;
}

@Injectable()
export class ProductRepository {
  private readonly products: Product[] = [
    { sku: "TEA-01", name: "Assam tea", price: 12 },
    { sku: "TEA-02", name: "Darjeeling tea", price: 18 },
    { sku: "TEA-03", name: "Nilgiri tea", price: 15 },
  ];

  all(): Product[] {
    return this.products;
  }

  bySku(sku: string): Product | undefined {
    return this.products.find((product) => product.sku === sku);
  }
}

@Injectable()
export class CatalogService {
  // An ordinary injected dependency: the tools below run on the instance Nest created.
  constructor(private readonly products: ProductRepository) {}

  @Tool({ name: "search_products", description: "Search the tea catalogue by name", annotations: { readOnly: true } })
  search(@ToolParam({ description: "Words of the product name, e.g. assam", minLength: 2 }) query: string) {
    const words = query.toLowerCase().split(/\s+/);
    return this.products.all().filter((product) => words.some((word) => product.name.toLowerCase().includes(word)));
  }

  /** Not a tool: used by the orders module through Nest's DI. */
  find(sku: string): Product {
    const product = this.products.bySku(sku);
    if (product === undefined) throw new Error(`There is no product with SKU ${sku}; search the catalogue first.`);
    return product;
  }
}

@Module({ providers: [ProductRepository, CatalogService], exports: [CatalogService] })
export class CatalogModule {}
