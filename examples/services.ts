/**
 * Decorated services: a WeatherService with plain parameters and an OrdersService whose
 * input is one DTO validated by class-validator. Exported to every provider, then a Gemini
 * response with two parallel calls (one of them invalid) is run through the toolkit.
 */
import "reflect-metadata";
import { Type } from "class-transformer";
import { ArrayMinSize, IsEmail, IsInt, IsOptional, IsString, Length, Min, ValidateNested } from "class-validator";
import { Args, Ctx, Param, Tool, Toolkit, type ToolContext } from "toolnexus";

export enum Units {
  Celsius = "celsius",
  Fahrenheit = "fahrenheit",
}

export class WeatherService {
  @Tool({ description: "Current weather for a city", annotations: { readOnly: true, title: "Weather" } })
  getWeather(
    @Param({ description: "City name, e.g. Chennai", minLength: 1 }) city: string,
    @Param({ description: "Temperature units", enum: Units }) units: Units = Units.Celsius,
  ) {
    const celsius = 31;
    return { city, temperature: units === Units.Celsius ? celsius : Math.round((celsius * 9) / 5 + 32), units };
  }
}

export class OrderLine {
  @IsString() @Length(3, 12) sku!: string;
  @IsInt() @Min(1) quantity!: number;
}

export class PlaceOrder {
  @IsEmail() customerEmail!: string;
  @ValidateNested({ each: true }) @ArrayMinSize(1) @Type(() => OrderLine) lines!: OrderLine[];
  @IsOptional() @IsString() note?: string;
}

export class OrdersService {
  private nextId = 1000;

  @Tool({ name: "place_order", description: "Place an order for a customer", annotations: { destructive: false } })
  placeOrder(@Args() order: PlaceOrder, @Ctx() ctx: ToolContext) {
    const units = order.lines.reduce((sum, line) => sum + line.quantity, 0);
    return { orderId: this.nextId++, units, placedBy: ctx.state?.user ?? "anonymous" };
  }
}

export async function main() {
  const toolkit = new Toolkit([new WeatherService(), new OrdersService()]);
  for (const [format, declarations] of Object.entries({
    gemini: toolkit.toGemini(),
    openai: toolkit.toOpenAI(),
    "openai-responses": toolkit.toOpenAIResponses(),
    anthropic: toolkit.toAnthropic(),
    mcp: toolkit.toMcp(),
    bedrock: toolkit.toBedrock(),
  })) {
    console.log(`${format}: ${JSON.stringify(declarations).length} bytes`);
  }
  console.log("gemini:", JSON.stringify(toolkit.toGemini(), null, 2));

  const modelResponse = {
    candidates: [
      {
        content: {
          role: "model",
          parts: [
            { functionCall: { id: "call-1", name: "getWeather", args: { city: "Chennai", units: "fahrenheit" } } },
            { functionCall: { id: "call-2", name: "place_order", args: { customerEmail: "not-an-email", lines: [] } } },
          ],
        },
      },
    ],
  };
  const reply = await toolkit.runGemini(modelResponse, { state: { user: "ada@example.com" } });
  console.log(
    "two calls, the second with invalid arguments on purpose, answered in one functionResponse turn:",
    JSON.stringify(reply, null, 2),
  );
  return { toolkit, reply };
}

if (require.main === module) void main();
